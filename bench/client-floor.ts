// The floor for the first-screen figures: a one-element page with the same "message row" element the
// app paints, served by a tiny node:http server and cached by a ten-line service worker the way the app
// shell is (cache first), so a reload with the server stopped still opens it. Its composer is the floor for
// Enter → pending row: a bare editable box whose Enter appends the row and empties the box, the least any
// page can do, so what remains of its time is the browser's (the wait for the next frame and its paint).
// Its /live page is the floor for another person's message → row: a line posted to this server is pushed to
// the page over one open stream (server-sent events) and appended as a row, with no store, worker or list.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Floor</title></head><body>
<main><article data-status="floor">One message row</article></main>
<div role="textbox" contenteditable="true" aria-label="Message #general" aria-multiline="true"></div>
<script>navigator.serviceWorker && navigator.serviceWorker.register('/sw.js');
const box = document.querySelector('[role=textbox]');
box.addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || e.shiftKey) return;
  e.preventDefault();
  const row = document.createElement('article');
  row.dataset.status = 'pending';
  row.textContent = box.textContent;
  document.querySelector('main').append(row);
  box.textContent = '';
});</script>
</body></html>`;

// The newest rows only, so that each arriving row is in view when it is painted (the probe waits for that).
const LIVE_PAGE = PAGE.replace(
  '</body>',
  `<script>const events = new EventSource('/events');
events.onmessage = (e) => {
  const row = document.createElement('article');
  row.dataset.status = 'live';
  row.textContent = e.data;
  const main = document.querySelector('main');
  main.append(row);
  while (main.children.length > 10) main.firstElementChild.remove();
};</script>
</body>`,
);

const WORKER = `self.addEventListener('install', (e) => {
  e.waitUntil(caches.open('floor').then((c) => c.add('/')).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (e) => {
  if (new URL(e.request.url).pathname === '/events') return;
  e.respondWith(caches.match(e.request).then((hit) => hit || fetch(e.request)));
});`;

export class FloorServer {
  private server: Server | null = null;
  /** The /live pages' open event streams. */
  private readonly streams = new Set<ServerResponse>();
  port = 0;

  get url(): string {
    return `http://localhost:${this.port}/`;
  }

  /** The page that appends each line posted here as a row. */
  get liveUrl(): string {
    return `${this.url}live`;
  }

  /** Pushes `text` to every open /live page; resolves once it is written to their streams. */
  async post(text: string): Promise<void> {
    const res = await fetch(`${this.url}post`, { method: 'POST', body: text });
    if (!res.ok) throw new Error(`posting to the floor → ${res.status}`);
  }

  /** Whether a /live page's stream is open (its EventSource connected). */
  get listening(): boolean {
    return this.streams.size > 0;
  }

  /** Listens on the port it had before (a restart after stop) or a free one. */
  async start(): Promise<void> {
    const server = createServer((req, res) => {
      if (req.url === '/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.flushHeaders();
        this.streams.add(res);
        res.on('close', () => this.streams.delete(res));
        return;
      }
      if (req.method === 'POST' && req.url === '/post') {
        let body = '';
        req.setEncoding('utf8');
        req.on('data', (chunk: string) => {
          body += chunk;
        });
        req.on('end', () => {
          for (const stream of this.streams) stream.write(`data: ${body.replace(/\n/g, ' ')}\n\n`);
          res.writeHead(204).end();
        });
        return;
      }
      const isWorker = req.url === '/sw.js';
      res.writeHead(200, {
        'content-type': isWorker ? 'text/javascript' : 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
      });
      res.end(isWorker ? WORKER : req.url === '/live' ? LIVE_PAGE : PAGE);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
