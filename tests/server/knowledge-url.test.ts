// URL knowledge sources: the server fetches a page from a real HTTP server started here and reads it by
// its media type (HTML named after its <title>, PDF, Word, Markdown, compressed, another charset), follows
// up to 5 redirects, and records why a page could not be read (HTTP error, too many redirects, too large,
// too slow, unsupported type). Addresses on loopback and private networks are refused unless allowed, and
// an agent answers from a fetched page with its title as the citation.
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, ErrorBody, KnowledgeSource, Message } from '../../schemas/protocol/index.ts';
import { retrievePassages } from '../../server/agents/retrieval.ts';
import { fetchPage, UrlFetchError } from '../../server/agents/url-source.ts';
import { addressRefusal } from '../../server/outbound/address-guard.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { makeDocx, makePdf } from './knowledge-documents.ts';
import {
  addMember,
  collect,
  connect,
  disconnectAll,
  eventually,
  makeWorkspace,
  messagesUrl,
  type Workspace,
} from './messaging-world.ts';

const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 1500;

const HANDBOOK = `<!doctype html><html><head><title>Staff handbook &amp; rules</title>
<style>body { color: red }</style><script>var secret = "never indexed";</script></head>
<body><h1>Expenses</h1><p>Train tickets are reimbursed in second class.</p>
<p>Meal allowances are capped at thirty euros a day.</p></body></html>`;

/** A local web site with one route per case; open responses are tracked so the test can close them. */
async function startSite(): Promise<{ url: string; close(): Promise<void> }> {
  const docx = await makeDocx('Parking permits are renewed every March.');
  const open = new Set<ServerResponse>();
  const send = (res: ServerResponse, type: string, body: string | Buffer, headers = {}) => {
    res.writeHead(200, { 'content-type': type, ...headers });
    res.end(body);
  };
  const server: Server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const hop = /^\/hop\/(\d+)$/.exec(path);
    if (hop) {
      const left = Number(hop[1]);
      res.writeHead(left % 2 ? 301 : 302, { location: left > 0 ? `/hop/${left - 1}` : '/handbook' });
      return res.end();
    }
    switch (path) {
      case '/handbook':
        return send(res, 'text/html; charset=utf-8', HANDBOOK);
      case '/untitled':
        return send(res, 'text/html', '<p>The fire assembly point is the north car park.</p>');
      case '/keys.pdf':
        return send(res, 'application/pdf', makePdf('The boiler room key hangs in the porch cupboard.'));
      case '/download':
        // A generic type: the name in the path decides (no name here, so it cannot be read).
        return send(res, 'application/octet-stream', 'binary');
      case '/files/parking.docx':
        return send(res, 'application/octet-stream', docx);
      case '/notes.md':
        return send(res, 'text/markdown', '# Notes\n\nThe wifi password is on the whiteboard.');
      case '/cafe':
        return send(
          res,
          'text/html; charset=iso-8859-1',
          Buffer.from('<title>Caf\xe9</title><p>The caf\xe9 opens at seven.</p>', 'latin1'),
        );
      case '/compressed':
        return send(res, 'text/html', gzipSync(HANDBOOK), { 'content-encoding': 'gzip' });
      case '/bomb':
        // Small on the wire, far over the limit once decompressed.
        return send(res, 'text/plain', gzipSync(Buffer.alloc(MAX_BYTES * 20, 'a')), {
          'content-encoding': 'gzip',
        });
      case '/endless': {
        // No Content-Length and no end: only counting bytes while reading stops it.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = 'x'.repeat(8192);
        const timer = setInterval(() => res.write(chunk), 1);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case '/declared-large':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(MAX_BYTES * 100) });
        return res.write('a'.repeat(100));
      case '/slow':
        // Headers at once, then nothing more.
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.write('<p>Loading');
      case '/image.png':
        return send(res, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      case '/to-ftp':
        res.writeHead(302, { location: 'ftp://files.example.com/handbook.txt' });
        return res.end();
      case '/to-metadata':
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      case '/empty':
        return send(res, 'text/plain', '   ');
      default:
        res.writeHead(404, { 'content-type': 'text/html' });
        return res.end('<h1>Not here</h1>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const res of open) res.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.each(databases)('URL knowledge sources (%s)', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let site: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    site = await startSite();
    t = await startTestServer(kind, {
      env: {
        KNOWLEDGE_URL_ALLOW_PRIVATE: 'true',
        KNOWLEDGE_URL_MAX_BYTES: String(MAX_BYTES),
        KNOWLEDGE_URL_TIMEOUT_MS: String(TIMEOUT_MS),
      },
    });
    ws = await makeWorkspace(t);
  });
  afterAll(async () => {
    disconnectAll();
    await t.close();
    await site.close();
  });

  async function newAgent(): Promise<Agent> {
    const res = await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, {
      name: `Reader ${randomUUID().slice(0, 4)}`,
    });
    return res.body.agent;
  }

  async function addUrl(agent: Agent, path: string, title?: string) {
    return ws.owner.api.post<{ knowledgeSource: KnowledgeSource }>(
      `/api/institutions/${ws.id}/agents/${agent.id}/knowledge-sources`,
      { type: 'url', url: `${site.url}${path}`, ...(title === undefined ? {} : { title }) },
    );
  }

  it('reads an HTML page, named after its <title>, without its scripts and styles', async () => {
    const agent = await newAgent();
    const res = await addUrl(agent, '/handbook');
    expect(res.status).toBe(201);
    expect(res.body.knowledgeSource).toMatchObject({
      type: 'url',
      title: 'Staff handbook & rules',
      status: 'ready',
      error: null,
      // One passage per paragraph, each under its heading.
      chunkCount: 2,
    });
    const [best] = await retrievePassages(t.ctx.db, agent.id, 'Are train tickets reimbursed?');
    expect(best?.content).toBe('Expenses\nTrain tickets are reimbursed in second class.');
    expect(best?.title).toBe('Staff handbook & rules');
    expect(best?.content).not.toContain('never indexed');
    expect(best?.content).not.toContain('color: red');
  });

  it('keeps a title the admin gives, and names an untitled page after its address', async () => {
    const agent = await newAgent();
    const given = await addUrl(agent, '/handbook', 'Expense rules');
    expect(given.body.knowledgeSource.title).toBe('Expense rules');
    const untitled = await addUrl(agent, '/untitled');
    expect(untitled.body.knowledgeSource).toMatchObject({
      status: 'ready',
      title: `${new URL(site.url).host}/untitled`,
    });
  });

  it('reads PDF, Word, Markdown, gzip-compressed and Latin-1 pages by their type', async () => {
    const agent = await newAgent();
    for (const path of ['/keys.pdf', '/files/parking.docx', '/notes.md', '/compressed', '/cafe']) {
      const res = await addUrl(agent, path);
      expect(res.body.knowledgeSource.status, path).toBe('ready');
    }
    const top = async (q: string) => (await retrievePassages(t.ctx.db, agent.id, q))[0];
    expect((await top('boiler key'))?.content).toContain('porch cupboard');
    expect((await top('boiler key'))?.title).toBe(`${new URL(site.url).host}/keys.pdf`);
    expect((await top('parking permits'))?.content).toContain('renewed every March');
    expect((await top('wifi password'))?.content).toContain('on the whiteboard');
    expect((await top('meal allowance'))?.title).toBe('Staff handbook & rules');
    expect((await top('opening time of the café'))?.content).toContain('The café opens at seven.');
    expect((await top('opening time of the café'))?.title).toBe('Café');
  });

  it('follows up to 5 redirects and gives up after that', async () => {
    const agent = await newAgent();
    const five = await addUrl(agent, '/hop/4');
    expect(five.body.knowledgeSource).toMatchObject({ status: 'ready', title: 'Staff handbook & rules' });
    const six = await addUrl(agent, '/hop/5');
    expect(six.body.knowledgeSource).toMatchObject({
      status: 'failed',
      error: 'The address redirected more than 5 times',
    });
  });

  it('records why a page could not be read: HTTP error, unsupported type, no text, bad redirect', async () => {
    const agent = await newAgent();
    const cases: [string, RegExp][] = [
      ['/missing', /^The address answered 404 Not Found$/],
      ['/image.png', /type \(image\/png\) cannot be read: only PDF, Word/],
      ['/download', /type \(application\/octet-stream\) cannot be read/],
      ['/empty', /no text/],
      ['/to-ftp', /redirected to ftp:.*only http and https/i],
      ['/to-metadata', /redirected to http:\/\/169\.254\.169\.254.*cannot be fetched/],
    ];
    for (const [path, reason] of cases) {
      const res = await addUrl(agent, path);
      expect(res.status, path).toBe(201);
      expect(res.body.knowledgeSource.status, path).toBe('failed');
      expect(res.body.knowledgeSource.error, path).toMatch(reason);
      expect(res.body.knowledgeSource.chunkCount, path).toBe(0);
    }
    const listed = await ws.owner.api.get<{ knowledgeSources: KnowledgeSource[] }>(
      `/api/institutions/${ws.id}/agents/${agent.id}/knowledge-sources`,
    );
    expect(listed.body.knowledgeSources.map((s) => s.status)).toEqual(cases.map(() => 'failed'));
  });

  it('stops reading past the byte limit, endless or compressed, without waiting for the end', async () => {
    const agent = await newAgent();
    for (const path of ['/endless', '/bomb', '/declared-large']) {
      const started = Date.now();
      const res = await addUrl(agent, path);
      expect(res.body.knowledgeSource, path).toMatchObject({
        status: 'failed',
        error: 'The page is larger than 0.1 MB',
      });
      expect(Date.now() - started, path).toBeLessThan(TIMEOUT_MS);
    }
  });

  it('gives up on a page that does not finish within the time limit', async () => {
    const agent = await newAgent();
    const started = Date.now();
    const res = await addUrl(agent, '/slow');
    expect(res.body.knowledgeSource).toMatchObject({
      status: 'failed',
      error: 'The address did not answer within 1.5 seconds',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2000);
  });

  it('refuses addresses that are not http or https before fetching', async () => {
    const agent = await newAgent();
    for (const url of ['ftp://files.example.com/a.txt', 'file:///etc/passwd', 'javascript:alert(1)']) {
      const res = await ws.owner.api.post<ErrorBody>(
        `/api/institutions/${ws.id}/agents/${agent.id}/knowledge-sources`,
        { type: 'url', url },
      );
      expect(res.status, url).toBe(400);
      expect(res.body.message, url).toMatch(/url|http and https/);
    }
    const listed = await ws.owner.api.get<{ knowledgeSources: KnowledgeSource[] }>(
      `/api/institutions/${ws.id}/agents/${agent.id}/knowledge-sources`,
    );
    expect(listed.body.knowledgeSources).toEqual([]);
  });

  it('answers a question from a fetched page, citing it by title, with no model configured', async () => {
    const agent = await newAgent();
    await addUrl(agent, '/handbook');
    const asker = await addMember(t, ws);
    const socket = await connect(t, asker.token);
    await new Promise((resolve) =>
      socket.emit('joinChannel', { institutionId: ws.id, channelId: ws.general.id }, resolve),
    );
    const edited = collect(socket, 'newEditMessage');
    const question = await asker.api.post<Message>(messagesUrl(ws, ws.general.id), {
      genId: randomUUID(),
      content: `<p><span data-type="mention" data-id="${agent.id}" class="mention">@${agent.name}</span> How much can I spend on meals?</p>`,
      mentions: [{ type: 'agent', id: agent.id }],
    });
    expect(question.status).toBe(201);
    await eventually(() => edited.some((m) => m.memberId === agent.id && m.content.includes('thirty euros')));
    const answer = edited.find((m) => m.memberId === agent.id && m.content.includes('thirty euros'));
    expect(answer?.replyTo).toBe(question.body.id);
    expect(answer?.content).toContain('Meal allowances are capped at thirty euros a day.');
    expect(answer?.content).toContain('Staff handbook &amp; rules');
  });
});

// Where the server may fetch from does not depend on the database: one PGlite server with the default
// (private addresses refused).

describe('URL knowledge sources: private addresses', () => {
  let t: TestServer;
  let ws: Workspace;
  let agent: Agent;
  let site: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    site = await startSite();
    t = await startTestServer('pglite');
    ws = await makeWorkspace(t);
    agent = (
      await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, { name: 'Careful' })
    ).body.agent;
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  const add = (url: string) =>
    ws.owner.api.post<ErrorBody>(`/api/institutions/${ws.id}/agents/${agent.id}/knowledge-sources`, {
      type: 'url',
      url,
    });

  it('refuses loopback, private and link-local addresses by default, with a 400 and the reason', async () => {
    const port = new URL(site.url).port;
    for (const url of [
      `${site.url}/handbook`,
      `http://localhost:${port}/handbook`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      'http://10.1.2.3/',
      'http://192.168.0.10/wiki',
      'http://2130706433/',
    ]) {
      const res = await add(url);
      expect(res.status, url).toBe(400);
      expect(res.body.message, url).toBe(
        'This server does not fetch loopback or private-network addresses (an operator can allow them)',
      );
    }
    const metadata = await add('http://169.254.169.254/latest/meta-data/');
    expect(metadata.status).toBe(400);
    expect(metadata.body.message).toBe('This address cannot be fetched');
  });

  it('classifies addresses: link-local always refused, private only when not allowed', () => {
    expect(addressRefusal('93.184.216.34', false)).toBeNull();
    expect(addressRefusal('2606:2800:220:1::1', false)).toBeNull();
    expect(addressRefusal('172.20.0.5', false)).toMatch(/private-network/);
    expect(addressRefusal('172.20.0.5', true)).toBeNull();
    expect(addressRefusal('fd12:3456::1', false)).toMatch(/private-network/);
    expect(addressRefusal('169.254.169.254', true)).toBe('This address cannot be fetched');
    expect(addressRefusal('fe80::1', true)).toBe('This address cannot be fetched');
  });

  it('refuses a host name that resolves to a loopback address, checked at connection time', async () => {
    // 'localhost' is a name, not an address: only the lookup made when connecting can refuse it.
    const url = new URL(site.url);
    url.hostname = 'localhost';
    const failure = await fetchPage(url, { allowPrivate: false, maxBytes: 1024, timeoutMs: 2000 }).catch(
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(UrlFetchError);
    expect((failure as Error).message).toMatch(/private-network/);
    // The same name is fetched when the operator allows private addresses.
    url.pathname = '/notes.md';
    const page = await fetchPage(url, { allowPrivate: true, maxBytes: 1024, timeoutMs: 2000 });
    expect(page.bytes.toString()).toContain('wifi password');
  });
});
