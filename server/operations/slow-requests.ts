// Slow requests in the log: a request the server has been working on for 10 s is reported while it still
// runs (with its request id, method and route pattern), and again when it ends. A hung request otherwise
// leaves no line at all: request logging is off at info level, and the error handler only sees failures.
// Time spent waiting for the client's body is not the server's and is left out, so an upload over a slow
// connection is not "slow"; a route whose handler reads the body stream itself opts out (readsItsBody).
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The handler reads the request stream itself (an upload): its time is the client's, not the server's. */
    readsItsBody?: boolean;
  }
}

/** How long the server may work on one request before the log says so. */
export const SLOW_REQUEST_MS = 10_000;
/** How often running requests are looked at: a report comes at most this late. */
const SWEEP_MS = 1_000;

interface Running {
  /** Milliseconds of the server's own work before the current stretch. */
  spent: number;
  /** When the current stretch of the server's work began; null while the client's body is read. */
  activeSince: number | null;
  reported: boolean;
}

export function reportSlowRequests(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  { thresholdMs = SLOW_REQUEST_MS, sweepMs = SWEEP_MS } = {},
): void {
  const running = new Map<FastifyRequest, Running>();
  const elapsed = (r: Running, now: number) => r.spent + (r.activeSince === null ? 0 : now - r.activeSince);
  const about = (request: FastifyRequest, ms: number) => ({
    reqId: request.id,
    method: request.method,
    // The pattern, never the address: a query can hold an e-mail address or an upload's signature.
    route: request.routeOptions.url ?? 'unmatched',
    seconds: Math.round(ms / 100) / 10,
  });

  app.addHook('onRequest', async (request) => {
    running.set(request, { spent: 0, activeSince: performance.now(), reported: false });
  });
  app.addHook('preParsing', async (request) => {
    const r = running.get(request);
    if (r?.activeSince != null) {
      r.spent += performance.now() - r.activeSince;
      r.activeSince = null;
    }
  });
  app.addHook('preValidation', async (request) => {
    const r = running.get(request);
    if (!r) return;
    if (request.routeOptions.config.readsItsBody) running.delete(request);
    else r.activeSince = performance.now();
  });
  const finish = (request: FastifyRequest, status: number) => {
    const r = running.get(request);
    if (!r) return;
    running.delete(request);
    const ms = elapsed(r, performance.now());
    if (r.reported || ms >= thresholdMs)
      log.warn(
        { ...about(request, ms), status },
        `A slow request finished after ${(ms / 1000).toFixed(1)} s`,
      );
  };
  // onSend: the answer is ready (its bytes then travel at the client's pace); onResponse covers an answer
  // that never went through onSend (the connection closed first).
  app.addHook('onSend', async (request, reply) => finish(request, reply.statusCode));
  app.addHook('onResponse', async (request, reply) => finish(request, reply.statusCode));
  // A client gone while its body was still coming: no handler runs, so nothing would end the entry. One
  // gone while its handler runs stays: the handler still ends (or hangs, which is worth a line).
  app.addHook('onRequestAbort', async (request) => {
    if (running.get(request)?.activeSince === null) running.delete(request);
  });

  const sweep = setInterval(() => {
    const now = performance.now();
    for (const [request, r] of running) {
      const ms = elapsed(r, now);
      if (!r.reported && ms >= thresholdMs) {
        r.reported = true;
        log.warn(about(request, ms), `A request has been running for ${(ms / 1000).toFixed(1)} s`);
      }
    }
  }, sweepMs);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
}
