// A stand-in for Sentry/GlitchTip at its wire protocol: a local HTTP server that accepts envelopes
// (POST /api/<project>/envelope/, gzip or plain) and keeps their items, for tests of what actually leaves.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface ReceivedItem {
  type: string;
  payload: unknown;
  /** The item as sent, for "this text never left" checks. */
  raw: string;
}

export interface ErrorReportReceiver {
  /** A DSN pointing here. */
  dsn: string;
  items: ReceivedItem[];
  /** Resolves once an item of this type arrived (polls; the test's own timeout bounds it). */
  waitFor(type: string): Promise<ReceivedItem>;
  close(): Promise<void>;
}

/**
 * An envelope's items: a header line, then each item's header line and payload. A payload whose header
 * names its byte length (a replay recording, compressed binary that may hold newlines) is read by that
 * length, others up to the next newline (the envelope format of develop.sentry.dev).
 */
export function envelopeItems(body: Buffer): ReceivedItem[] {
  const items: ReceivedItem[] = [];
  const lineEnd = (from: number) => {
    const at = body.indexOf(0x0a, from);
    return at < 0 ? body.length : at;
  };
  let at = lineEnd(0) + 1;
  while (at < body.length) {
    const headerEnd = lineEnd(at);
    const headerText = body.subarray(at, headerEnd).toString('utf8').trim();
    at = headerEnd + 1;
    if (!headerText) continue;
    const header = JSON.parse(headerText) as { type: string; length?: number };
    const end = typeof header.length === 'number' ? at + header.length : lineEnd(at);
    const raw = body.subarray(at, end).toString('utf8');
    at = end + 1;
    let payload: unknown = raw;
    try {
      payload = JSON.parse(raw);
    } catch {
      // Replay recordings are binary; kept raw.
    }
    items.push({ type: header.type, payload, raw });
  }
  return items;
}

export async function startErrorReportReceiver(): Promise<ErrorReportReceiver> {
  const items: ReceivedItem[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      for (const item of envelopeItems(body)) items.push(item);
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    dsn: `http://0123456789abcdef0123456789abcdef@127.0.0.1:${port}/1`,
    items,
    async waitFor(type) {
      for (;;) {
        const found = items.find((i) => i.type === type);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
