// The floor for the first-screen figures: a one-element page with the same "message row" element the
// app paints, served by a tiny node:http server and cached by a ten-line service worker the way the app
// shell is (cache first), so a reload with the server stopped still opens it. Its composer is the floor for
// Enter → pending row: a bare editable box whose Enter appends the row and empties the box, the least any
// page can do, so what remains of its time is the browser's (the wait for the next frame and its paint).
import { createServer, type Server } from 'node:http';
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

const WORKER = `self.addEventListener('install', (e) => {
  e.waitUntil(caches.open('floor').then((c) => c.add('/')).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (e) => {
  e.respondWith(caches.match(e.request).then((hit) => hit || fetch(e.request)));
});`;

export class FloorServer {
  private server: Server | null = null;
  port = 0;

  get url(): string {
    return `http://localhost:${this.port}/`;
  }

  /** Listens on the port it had before (a restart after stop) or a free one. */
  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const isWorker = req.url === '/sw.js';
      res.writeHead(200, {
        'content-type': isWorker ? 'text/javascript' : 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
      });
      res.end(isWorker ? WORKER : PAGE);
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
