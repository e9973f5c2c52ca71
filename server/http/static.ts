// Serves the built client (vite build output in CLIENT_DIR) with an SPA fallback: any GET that is not an
// API or socket.io path and accepts HTML gets index.html, so deep links like /w/1/c/2 load the app.
// Everything else unknown is a JSON 404.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody } from './errors.ts';

/** Files that must be revalidated on every load: they name the hashed assets of the current build. */
const NO_CACHE = new Set([
  'index.html',
  'signin.html',
  'sw.js',
  'manifest.webmanifest',
  'registerSW.js',
  'version.json',
]);

const wantsApp = (request: FastifyRequest) =>
  request.method === 'GET' &&
  !request.url.startsWith('/api/') &&
  !request.url.startsWith('/socket.io/') &&
  (request.headers.accept ?? '').includes('text/html');

export async function registerStatic(app: FastifyInstance, clientDir: string): Promise<void> {
  const root = path.resolve(clientDir);
  const hasClient = existsSync(path.join(root, 'index.html'));
  // A page load of /signin gets the standalone sign-in page (decision 0036): the form without the app.
  const hasSignIn = existsSync(path.join(root, 'signin.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      // The build writes .br and .gz copies (scripts/precompress.ts); send them to clients that accept one.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        const name = path.basename(filePath);
        if (NO_CACHE.has(name)) res.header('Cache-Control', 'no-cache');
        // Vite puts content-hashed files under assets/: their name changes whenever their bytes do.
        else if (filePath.includes(`${path.sep}assets${path.sep}`))
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
        else res.header('Cache-Control', 'public, max-age=3600');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (hasClient && wantsApp(request)) {
      const page = hasSignIn && request.url.split('?')[0] === '/signin' ? 'signin.html' : 'index.html';
      return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile(page, root);
    }
    const message = request.url.startsWith('/api/')
      ? `Route ${request.method} ${request.url} not found`
      : 'Not found';
    return reply.status(404).send(errorBody(404, message, request.id));
  });
}
