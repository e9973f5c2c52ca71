// Link previews (decision 0053): the server reads a page from a real HTTP server started here (OpenGraph,
// only a <title>, Latin-1, a huge page, a non-HTML answer, redirects, a slow answer) through the address
// guard, serves the page's picture itself (image types only, nosniff), caches answers, and refuses
// non-members, a workspace that switched previews off, bad addresses and, unless the operator allowed them
// as this suite does for its local site, loopback and private addresses.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ErrorBody,
  InstitutionWithMember,
  LinkPreviewResponse,
  LinkPreviewSetting,
} from '../../schemas/protocol/index.ts';
import { createLinkPreviews, HTML_MAX_BYTES } from '../../server/link-previews/link-previews.ts';
import { pageCard } from '../../server/link-previews/page-card.ts';
import { PRIVATE_REFUSED } from '../../server/outbound/address-guard.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { disconnectAll } from './messaging-world.ts';
import { makeTeam, type Team } from './workspace-world.ts';

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const OPEN_GRAPH = `<!doctype html><html><head>
<meta charset="utf-8"><title>Ignored when og:title is there</title>
<meta property="og:title" content="Tom &amp; Jerry&#39;s &#x2014; &quot;Cartoons&quot;">
<meta property='og:description' content='Cat   and
mouse, <b>since</b> 1940.'>
<meta property="og:site_name" content="Cartoon Archive">
<meta property="og:image" content="/pictures/cat.png">
</head><body><p>Hello</p></body></html>`;

interface Site {
  url: string;
  /** How many requests each path has had. */
  hits: Map<string, number>;
  /** Bytes the huge page wrote before the reader hung up. */
  hugeWritten(): number;
  close(): Promise<void>;
}

async function startSite(): Promise<Site> {
  const open = new Set<ServerResponse>();
  const hits = new Map<string, number>();
  let hugeWritten = 0;
  const send = (res: ServerResponse, type: string, body: string | Buffer) => {
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  };
  const server: Server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    switch (path) {
      case '/og':
      case '/counted':
        return send(res, 'text/html; charset=utf-8', OPEN_GRAPH);
      case '/pictures/cat.png':
        return send(res, 'image/png', PNG);
      case '/title-only':
        return send(
          res,
          'text/html',
          '<html><head><title>\n  Plain   page </title><meta name="description" content="Just words"></head></html>',
        );
      case '/cafe':
        return send(
          res,
          'text/html; charset=iso-8859-1',
          Buffer.from('<title>Caf\xe9 du coin</title>', 'latin1'),
        );
      case '/svg-picture':
        return send(res, 'text/html', '<title>Vector</title><meta property="og:image" content="/pic.svg">');
      case '/pic.svg':
        return send(
          res,
          'image/svg+xml',
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        );
      case '/huge': {
        // The card in the head, then an endless body: only the first HTML_MAX_BYTES are ever read.
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><head><title>Huge page</title></head><body>');
        const chunk = `<p>${'x'.repeat(16 * 1024)}</p>`;
        const timer = setInterval(() => {
          hugeWritten += chunk.length;
          res.write(chunk);
        }, 1);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case '/late-title':
        // The title sits past the part that is read.
        return send(
          res,
          'text/html',
          `<html><body>${'y'.repeat(HTML_MAX_BYTES + 10)}<title>Too late</title>`,
        );
      case '/data.json':
        return send(res, 'application/json', '{"title":"not a page"}');
      case '/moved':
        res.writeHead(301, { location: '/og' });
        return res.end();
      case '/to-metadata':
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      case '/slow':
        // Headers at once, then nothing more.
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.write('<html><head>');
      default:
        res.writeHead(404, { 'content-type': 'text/html' });
        return res.end('<title>Not here</title>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    hugeWritten: () => hugeWritten,
    close: () =>
      new Promise((resolve) => {
        for (const res of open) res.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.each(databases)('link previews (%s)', (kind) => {
  let t: TestServer;
  let team: Team;
  let site: Site;

  beforeAll(async () => {
    site = await startSite();
    // The local site is on loopback: allowed here, as the operator of an intranet would.
    t = await startTestServer(kind, { env: { LINK_PREVIEW_ALLOW_PRIVATE: 'true' } });
    team = await makeTeam(t);
  });
  afterAll(async () => {
    disconnectAll();
    await t?.close();
    await site?.close();
  });

  const previewUrl = (page: string, ws = team.ws.id) =>
    `/api/institutions/${ws}/link-previews?url=${encodeURIComponent(page)}`;
  const preview = (page: string) => team.member.api.get<LinkPreviewResponse>(previewUrl(page));

  it('reads OpenGraph tags, decodes entities, and serves the picture itself', async () => {
    const res = await preview(`${site.url}/og#section`);
    expect(res.status).toBe(200);
    expect(res.body.reason).toBeNull();
    expect(res.body.preview).toEqual({
      url: `${site.url}/og`,
      title: 'Tom & Jerry\'s — "Cartoons"',
      description: 'Cat and mouse, since 1940.',
      siteName: 'Cartoon Archive',
      imageUrl: `/api/institutions/${team.ws.id}/link-previews/image?url=${encodeURIComponent(`${site.url}/og`)}`,
    });
    // The relative picture was resolved against the page and is served from our origin.
    const image = await fetch(new URL(res.body.preview?.imageUrl ?? '', t.url), {
      headers: { authorization: `Bearer ${team.member.token}` },
    });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    expect(site.hits.get('/pictures/cat.png')).toBe(1);
  });

  it('falls back to <title> and the meta description, and reads the page in its charset', async () => {
    const plain = await preview(`${site.url}/title-only`);
    expect(plain.body.preview).toMatchObject({
      title: 'Plain page',
      description: 'Just words',
      siteName: null,
      imageUrl: null,
    });
    expect((await preview(`${site.url}/cafe`)).body.preview?.title).toBe('Café du coin');
  });

  it('follows a redirect within the guard, and refuses one to a metadata address', async () => {
    const moved = await preview(`${site.url}/moved`);
    expect(moved.body.preview?.title).toBe('Tom & Jerry\'s — "Cartoons"');
    const metadata = await preview(`${site.url}/to-metadata`);
    expect(metadata.status).toBe(200);
    expect(metadata.body.preview).toBeNull();
    expect(metadata.body.reason).toMatch(/redirected to an address that cannot be fetched/);
  });

  it('reads only the first few hundred KB of a huge page', async () => {
    const huge = await preview(`${site.url}/huge`);
    expect(huge.body.preview?.title).toBe('Huge page');
    // The reader hung up soon after its limit, far before the endless body would have ended.
    await new Promise((r) => setTimeout(r, 200));
    const written = site.hugeWritten();
    await new Promise((r) => setTimeout(r, 200));
    expect(site.hugeWritten()).toBe(written);
    const late = await preview(`${site.url}/late-title`);
    expect(late.body).toEqual({ preview: null, reason: 'The page has nothing to show in a preview' });
  });

  it('refuses what is not a web page, and a picture that is not a raster image', async () => {
    const json = await preview(`${site.url}/data.json`);
    expect(json.body).toEqual({ preview: null, reason: 'The address is not a web page (application/json)' });
    const vector = await preview(`${site.url}/svg-picture`);
    expect(vector.body.preview?.imageUrl).not.toBeNull();
    const image = await team.member.api.get(vector.body.preview?.imageUrl ?? '');
    expect(image.status).toBe(404);
    expect(image.body.message).toBe('The page’s picture is not a PNG, JPEG, GIF, WebP or AVIF image');
  });

  it('answers a second time from its cache, failures too', async () => {
    const first = await preview(`${site.url}/counted`);
    const second = await team.admin.api.get<LinkPreviewResponse>(previewUrl(`${site.url}/counted`));
    expect(second.body).toEqual(first.body);
    expect(site.hits.get('/counted')).toBe(1);
    await preview(`${site.url}/data.json`);
    expect(site.hits.get('/data.json')).toBe(1);
  });

  it('answers 400 with a sentence for addresses that cannot be previewed', async () => {
    const cases: [string, RegExp][] = [
      [previewUrl('not an address'), /not a web address/],
      [previewUrl('ftp://files.example.com/a.txt'), /Only http and https/],
      [previewUrl('http://user:secret@example.com/'), /user name or password/],
      [previewUrl('http://169.254.169.254/latest/'), /cannot be fetched/],
      [previewUrl(`https://example.com/${'a'.repeat(2100)}`), /at most 2048 characters/],
      [`/api/institutions/${team.ws.id}/link-previews`, /address is missing/],
    ];
    for (const [url, message] of cases) {
      const res = await team.member.api.get<ErrorBody>(url);
      expect(res.status, url).toBe(400);
      expect(res.body.message, url).toMatch(message);
    }
  });

  it('refuses people outside the workspace', async () => {
    for (const who of [team.outsider, team.stranger]) {
      const res = await who.api.get(previewUrl(`${site.url}/og`));
      expect(res.status).toBe(403);
      const image = await who.api.get(`/api/institutions/${team.ws.id}/link-previews/image?url=x`);
      expect(image.status).toBe(403);
    }
    expect((await t.api().get(previewUrl(`${site.url}/og`))).status).toBe(401);
  });

  it('lets admins, and only them, switch previews off; then the route refuses', async () => {
    const setting = `/api/institutions/${team.ws.id}/link-preview-setting`;
    const list = async () =>
      (await team.member.api.get<{ data: InstitutionWithMember[] }>('/api/institutions')).body.data.find(
        (w) => w.id === team.ws.id,
      );
    expect((await list())?.linkPreviews).toBe(true);
    expect((await team.member.api.put(setting, { linkPreviews: false })).status).toBe(403);
    expect((await team.guest.api.put(setting, { linkPreviews: false })).status).toBe(403);
    expect((await team.stranger.api.put(setting, { linkPreviews: false })).status).toBe(403);
    const bad = await team.admin.api.put(setting, { linkPreviews: 'no' });
    expect(bad.status).toBe(400);

    const off = await team.admin.api.put<LinkPreviewSetting>(setting, { linkPreviews: false });
    expect(off.body).toEqual({ linkPreviews: false });
    expect((await list())?.linkPreviews).toBe(false);
    // Even a page already in the cache is not shown.
    const refused = await preview(`${site.url}/og`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: 'Link previews are switched off in this workspace' });
    const image = await team.member.api.get(
      `/api/institutions/${team.ws.id}/link-previews/image?url=${encodeURIComponent(`${site.url}/og`)}`,
    );
    expect(image.status).toBe(403);

    await team.owner.api.put(setting, { linkPreviews: true });
    expect((await preview(`${site.url}/og`)).status).toBe(200);
  });
});

describe.each(databases)('link previews without private addresses allowed (%s)', (kind) => {
  let t: TestServer;
  let team: Team;
  let site: Site;

  beforeAll(async () => {
    site = await startSite();
    t = await startTestServer(kind);
    team = await makeTeam(t);
  });
  afterAll(async () => {
    disconnectAll();
    await t?.close();
    await site?.close();
  });

  it('refuses loopback and private addresses before any request', async () => {
    const { port } = new URL(site.url);
    for (const page of [
      `${site.url}/og`,
      `http://localhost:${port}/og`,
      `http://[::1]:${port}/og`,
      `http://10.0.0.1/`,
    ]) {
      const res = await team.member.api.get<ErrorBody>(
        `/api/institutions/${team.ws.id}/link-previews?url=${encodeURIComponent(page)}`,
      );
      expect(res.status, page).toBe(400);
      expect(res.body.message, page).toBe(PRIVATE_REFUSED);
    }
    expect(site.hits.size).toBe(0);
  });
});

describe('link preview fetching', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site?.close();
  });

  it('reads a hostile page in one linear pass', () => {
    const page = new URL('https://example.com/a/b');
    const half = HTML_MAX_BYTES / 2;
    for (const unit of [
      '<meta ',
      '<meta content="',
      "<meta a='",
      '<title',
      '<title>',
      '&#x',
      '<meta property=og:title content=x>',
    ]) {
      const html = unit.repeat(Math.ceil(half / unit.length));
      const started = performance.now();
      pageCard(html, page);
      expect(performance.now() - started, unit).toBeLessThan(250);
    }
    // Scripts, other schemes and control characters do not get through.
    const card = pageCard(
      `<meta property="og:title" content="A\u0007&#0;&#x202e;B">
       <meta property="og:image" content="javascript:alert(1)">
       <meta name="twitter:image" content="data:image/png;base64,AAAA">`,
      page,
    );
    expect(card).toEqual({ title: 'A \uFFFD B', description: null, siteName: null, imageSource: null });
    expect(pageCard('<meta property="og:image" content="../pic.jpg?a=1&amp;b=2">', page).imageSource).toBe(
      'https://example.com/pic.jpg?a=1&b=2',
    );
  });

  it('gives up on a page that does not answer in time', async () => {
    const previews = createLinkPreviews({ allowPrivate: true, timeoutMs: 300 });
    const started = Date.now();
    const outcome = await previews.page(new URL(`${site.url}/slow`));
    expect(outcome).toEqual({ ok: false, reason: 'The page did not answer within 0.3 seconds' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('is refused by the address guard at connection time when private addresses are not allowed', async () => {
    const previews = createLinkPreviews({ allowPrivate: false });
    expect(await previews.page(new URL(`${site.url}/og`))).toEqual({ ok: false, reason: PRIVATE_REFUSED });
    expect(site.hits.get('/og')).toBeUndefined();
  });
});
