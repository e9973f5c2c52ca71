// Security headers on every response (app, API, static files) through @fastify/helmet: the Content-
// Security-Policy and the headers around it. Decision 0016 gives each directive and why it is what it is.
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { clientErrorDsn } from './client-config.ts';

/** HSTS lifetime: a year, the value browsers' preload lists expect. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The Content-Security-Policy directives for this configuration. */
function cspDirectives(config: Config): Record<string, string[]> {
  // Downloads may redirect to presigned S3 addresses and uploads PUT there directly.
  const s3 = config.S3_ENDPOINT ? [new URL(config.S3_ENDPOINT).origin] : [];
  // The client's error reports go to its DSN's host (decision 0040).
  const dsn = clientErrorDsn(config);
  const errorReports = dsn ? [new URL(dsn).origin] : [];
  return {
    defaultSrc: ["'self'"],
    // The build emits no inline script; the service worker, SharedWorker and pdf.js worker are own files.
    scriptSrc: ["'self'"],
    // Radix (popper positioning) and TipTap set style attributes from script.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...s3],
    mediaSrc: ["'self'", 'blob:', ...s3],
    fontSrc: ["'self'", 'data:'],
    // 'self' covers the socket.io websocket of the same host (CSP level 3); pdf.js fetches the PDF from
    // the blob: address the client made of the authenticated download.
    connectSrc: ["'self'", 'blob:', ...s3, ...errorReports, ...config.CSP_CONNECT_SRC],
    workerSrc: ["'self'", 'blob:'],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: config.FRAME_ANCESTORS.length > 0 ? config.FRAME_ANCESTORS : ["'none'"],
  };
}

export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const https = new URL(config.PUBLIC_URL).protocol === 'https:';
  const directives = cspDirectives(config);
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives },
    // Sign-in popups (an identity provider's window) must be able to report back to the opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // Presigned S3 downloads and third-party embeds are other origins; COEP would block them.
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Only a site reached over https may pin itself to https; on http://localhost this would break dev.
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false } : false,
    // frame-ancestors supersedes X-Frame-Options; the legacy header is sent only when it agrees.
    xFrameOptions: directives.frameAncestors?.join(' ') === "'none'" ? { action: 'deny' } : false,
  });
}
