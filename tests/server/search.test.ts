// Message search: full-text over the text of messages (HTML stripped), ranked and highlighted, and only
// ever over channels the caller may read — on PGlite and PostgreSQL alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, MessageSearchResponse } from '../../schemas/protocol/index.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import { addMember, makeChannel, makeWorkspace, restPost, type Workspace } from './messaging-world.ts';

const searchUrl = (ws: Workspace, terms: string, extra = '') =>
  `/api/institutions/${ws.id}/messages/search?search=${encodeURIComponent(terms)}${extra}`;

async function search(by: TestUser, ws: Workspace, terms: string, extra = '') {
  const res = await by.api.get<MessageSearchResponse>(searchUrl(ws, terms, extra));
  expect(res.status).toBe(200);
  return res.body;
}

describe.each(databases)('message search (%s)', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let member: TestUser;

  beforeAll(async () => {
    t = await startTestServer(kind);
    ws = await makeWorkspace(t);
    member = await addMember(t, ws);
  });
  afterAll(() => t.close());

  it('finds words in the text of a message, not in its markup, and marks the matches', async () => {
    await restPost(ws.owner, ws, ws.general.id, '<p>The <strong>quarterly</strong> budget is ready</p>');
    await restPost(ws.owner, ws, ws.general.id, '<p><a href="https://strong.example">link</a></p>');

    const found = await search(member, ws, 'quarterly budget');
    expect(found.data).toHaveLength(1);
    expect(found.data[0]?.message.content).toContain('quarterly');
    expect(found.data[0]?.highlight).toBe('The <mark>quarterly</mark> <mark>budget</mark> is ready');

    // "strong" is only a tag name and an address inside an attribute: not text.
    const tags = await search(member, ws, 'strong');
    expect(tags.data).toHaveLength(0);
  });

  it('escapes HTML in highlights so message text cannot inject markup', async () => {
    await restPost(ws.owner, ws, ws.general.id, '<p>beware &lt;img src=x onerror=alert(1)&gt; zebra</p>');
    const found = await search(member, ws, 'zebra');
    expect(found.data).toHaveLength(1);
    expect(found.data[0]?.highlight).not.toContain('<img');
    expect(found.data[0]?.highlight).toContain('&lt;img');
    expect(found.data[0]?.highlight).toContain('<mark>zebra</mark>');
  });

  it('ranks the better match first and the newest first among equals, page by page', async () => {
    const first = await restPost(ws.owner, ws, ws.general.id, '<p>walrus</p>');
    const better = await restPost(
      ws.owner,
      ws,
      ws.general.id,
      '<p>walrus walrus walrus talk about the walrus</p>',
    );
    const newest = await restPost(ws.owner, ws, ws.general.id, '<p>walrus</p>');

    const all = await search(member, ws, 'walrus');
    expect(all.data.map((h) => h.message.id)).toEqual([better.id, newest.id, first.id]);
    expect(all.metadata).toMatchObject({ total: 3, page: 1, limit: 10, hasMore: false });

    const page1 = await search(member, ws, 'walrus', '&limit=2');
    expect(page1.data.map((h) => h.message.id)).toEqual([better.id, newest.id]);
    expect(page1.metadata.hasMore).toBe(true);
    const page2 = await search(member, ws, 'walrus', '&limit=2&page=2');
    expect(page2.data.map((h) => h.message.id)).toEqual([first.id]);
    expect(page2.metadata).toMatchObject({ total: 3, hasMore: false });
    const past = await search(member, ws, 'walrus', '&limit=2&page=5');
    expect(past.data).toEqual([]);
    expect(past.metadata.total).toBe(3);
  });

  it('understands quoted phrases and excluded words', async () => {
    await restPost(ws.owner, ws, ws.general.id, '<p>red panda sighting</p>');
    await restPost(ws.owner, ws, ws.general.id, '<p>panda that is red</p>');
    expect((await search(member, ws, '"red panda"')).data).toHaveLength(1);
    expect((await search(member, ws, 'panda -sighting')).data).toHaveLength(1);
  });

  it('never returns a message from a private channel the caller is not in', async () => {
    const secret = await makeChannel(ws.owner, ws, 'private');
    await restPost(ws.owner, ws, secret.id, '<p>platypus plans</p>');
    expect((await search(ws.owner, ws, 'platypus')).data).toHaveLength(1);
    expect((await search(member, ws, 'platypus')).data).toHaveLength(0);
  });

  it('never returns a deleted message', async () => {
    const gone = await restPost(ws.owner, ws, ws.general.id, '<p>ocelot</p>');
    await t.ctx.db.execute(`update messages set deleted_at = now() where id = '${gone.id}'`);
    expect((await search(member, ws, 'ocelot')).data).toHaveLength(0);
  });

  it("never returns another workspace's messages, and refuses a workspace the caller is not in", async () => {
    const other = await makeWorkspace(t, 'Other');
    await restPost(other.owner, other, other.general.id, '<p>narwhal</p>');
    expect((await search(ws.owner, ws, 'narwhal')).data).toHaveLength(0);
    const res = await member.api.get<ErrorBody>(searchUrl(other, 'narwhal'));
    expect(res.status).toBe(403);
  });

  it('refuses an empty or too long search with a message', async () => {
    const empty = await member.api.get<ErrorBody>(searchUrl(ws, '   '));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/search/i);
    const long = await member.api.get<ErrorBody>(searchUrl(ws, 'x'.repeat(201)));
    expect(long.status).toBe(400);
    const badLimit = await member.api.get<ErrorBody>(searchUrl(ws, 'walrus', '&limit=51'));
    expect(badLimit.status).toBe(400);
  });
});
