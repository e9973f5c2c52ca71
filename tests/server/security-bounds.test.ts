// Input is bounded before it is examined (issue 9, item 5), replayed as a stranger who created their own
// workspace: a 200 000-character channel name, oversized bodies on REST routes and socket events, and
// huge page numbers on every paged list.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Ack, type ErrorBody, type Message, PAGE_NUMBER_MAX } from '../../schemas/protocol/index.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import {
  connect,
  disconnectAll,
  makeChannel,
  makeWorkspace,
  messagesUrl,
  type Workspace,
} from './messaging-world.ts';

/** Far above a refused request's real cost, far below the tens of seconds the attack used to take. */
const FAST_MS = 2_000;

const emit = <T>(socket: Awaited<ReturnType<typeof connect>>, event: string, payload: unknown) =>
  new Promise<Ack<T>>((resolve) => {
    (socket.emit as (e: string, p: unknown, ack: (r: Ack<T>) => void) => void)(event, payload, resolve);
  });

describe.each(databases)('input bounds on %s', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  beforeAll(async () => {
    t = await startTestServer(kind);
    ws = await makeWorkspace(t, 'Stranger');
  });
  afterEach(() => disconnectAll());
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a 200 000-character channel name at once, and answers others meanwhile', async () => {
    const channels = `/api/institutions/${ws.id}/channels`;
    const started = performance.now();
    const [attack, other] = await Promise.all([
      ws.owner.api.post(channels, { name: `${'a'.repeat(200_000)}!` }),
      ws.owner.api.get(`/api/institutions/${ws.id}/channels/joined`),
    ]);
    const elapsed = performance.now() - started;
    // The body is over the route's limit, so it is refused before it is even parsed.
    expect(attack.status).toBe(413);
    expect(attack.body.message).toBe('This request is too large: it may carry at most 16 kB.');
    expect(other.status).toBe(200);
    expect(elapsed).toBeLessThan(FAST_MS);
  });

  it('stops a long channel name at its length limit with a clear 400, before the pattern runs', async () => {
    const channels = `/api/institutions/${ws.id}/channels`;
    // As long as the body limit lets through: the schema must stop it, not the pattern.
    const started = performance.now();
    const created = await ws.owner.api.post(channels, { name: `${'a'.repeat(16_000)}!` });
    const renamed = await ws.owner.api.put(`${channels}/${ws.general.id}`, {
      name: `${'a '.repeat(8_000)}!`,
    });
    expect(performance.now() - started).toBeLessThan(FAST_MS);
    expect(created.status).toBe(400);
    expect(created.body.message).toBe('A channel name has at most 80 characters');
    expect(renamed.status).toBe(400);
    expect(renamed.body.message).toBe('A channel name has at most 80 characters');
  });

  it('still accepts names with spaces, dashes and underscores, and refuses other characters', async () => {
    const channels = `/api/institutions/${ws.id}/channels`;
    const created = await ws.owner.api.post<{ channel: { name: string } }>(channels, {
      name: ' Team  one_2-b ',
    });
    expect(created.status).toBe(201);
    expect(created.body.channel.name).toBe('team  one_2-b');
    const refused = await ws.owner.api.post(channels, { name: 'team!' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Use letters, numbers, spaces, - and _');
  });

  it('refuses an oversized JSON body with a 413 that says how much the route takes', async () => {
    const padding = 'x'.repeat(100_000);
    const channel = await ws.owner.api.post(`/api/institutions/${ws.id}/channels`, { name: 'big', padding });
    expect(channel.status).toBe(413);
    expect(channel.body.message).toBe('This request is too large: it may carry at most 16 kB.');

    const message = await ws.owner.api.post(messagesUrl(ws, ws.general.id), {
      content: `<p>${'x'.repeat(400_000)}</p>`,
      genId: randomUUID(),
    });
    expect(message.status).toBe(413);
    expect(message.body.message).toMatch(/^This request is too large: it may carry at most \d+ kB\.$/);
  });

  it('accepts a message at its full length in three-byte characters', async () => {
    const content = `<p>${'€'.repeat(39_000)}</p>`;
    const res = await ws.owner.api.post<Message>(messagesUrl(ws, ws.general.id), {
      content,
      genId: randomUUID(),
    });
    expect(res.status).toBe(201);
    expect(res.body.content).toBe(content);
  });

  it('refuses an event larger than it takes with an error ack, and the socket carries on', async () => {
    const socket = await connect(t, ws.owner.token);
    const refused = await emit(socket, 'visitChannel', {
      institutionId: ws.id,
      channelId: ws.general.id,
      padding: 'x'.repeat(100_000),
    });
    expect(refused).toEqual({ error: { message: 'This request is too large: it may carry at most 16 kB.' } });
    expect(socket.connected).toBe(true);
    const ok = await emit(socket, 'visitChannel', { institutionId: ws.id, channelId: ws.general.id });
    expect(ok).toEqual({ ok: true });
    // The largest legitimate event still fits: a message at its full length in three-byte characters.
    const content = `<p>${'€'.repeat(39_000)}</p>`;
    const posted = await emit<Message>(socket, 'postMessage', {
      institutionId: ws.id,
      channelId: ws.general.id,
      content,
      genId: randomUUID(),
    });
    expect(posted).toMatchObject({ content });
  });

  it('closes only the socket that sends a message over the socket limit; the others carry on', async () => {
    const channel = await makeChannel(ws.owner, ws);
    const attacker = await connect(t, ws.owner.token);
    const bystander = await connect(t, ws.owner.token);
    const dropped = new Promise<string>((resolve) => attacker.once('disconnect', resolve));
    (attacker.emit as (event: string, payload: unknown) => void)('postMessage', {
      institutionId: ws.id,
      channelId: channel.id,
      content: `<p>${'x'.repeat(2_000_000)}</p>`,
      genId: randomUUID(),
    });
    expect(await dropped).toBe('transport close');
    expect(bystander.connected).toBe(true);
    const posted = await emit<Message>(bystander, 'postMessage', {
      institutionId: ws.id,
      channelId: channel.id,
      content: '<p>still here</p>',
      genId: randomUUID(),
    });
    expect(posted).toMatchObject({ content: '<p>still here</p>' });
  });

  it('answers a huge page or limit on every paged list with a 400 or an empty page, never a 500', async () => {
    const channel = `/api/institutions/${ws.id}/channels/${ws.general.id}`;
    const lists = [
      `${channel}/messages`,
      `${channel}/messages/pinned`,
      `${channel}/messages/starred`,
      `/api/institutions/${ws.id}/activities`,
      `/api/institutions/${ws.id}/messages/search?search=hello`,
      `/api/institutions/${ws.id}/files`,
    ];
    const huge = ['1e12', '99999999999999999999', '9007199254740991', '-1', '1.5', 'abc', 'Infinity'];
    for (const list of lists) {
      const sep = list.includes('?') ? '&' : '?';
      for (const value of huge) {
        for (const param of ['page', 'limit']) {
          const res = await ws.owner.api.get<ErrorBody & { data?: unknown[] }>(
            `${list}${sep}${param}=${value}`,
          );
          const outcome = `${list} ${param}=${value}: ${res.status}`;
          expect([200, 400], outcome).toContain(res.status);
          if (res.status === 200) expect(res.body.data, outcome).toEqual([]);
          else
            expect(res.body.message, outcome).toMatch(/^(The page number|The page size|Pages are numbered)/);
        }
      }
    }
    // Past the last page number any list can reach: refused by the bound, not left to the database.
    for (const list of lists) {
      const sep = list.includes('?') ? '&' : '?';
      const res = await ws.owner.api.get(`${list}${sep}page=${PAGE_NUMBER_MAX + 1}`);
      expect(res.status, list).toBe(400);
      expect(res.body.message, list).toBe(`Pages are numbered up to ${PAGE_NUMBER_MAX}`);
    }
    const others = [
      `${channel}/messages/changes?after=99999999999999999999`,
      `${channel}/messages/changes?after=9007199254740991`,
      `/api/institutions/${ws.id}/agents/usage?days=1e12`,
    ];
    for (const url of others) expect([200, 400], url).toContain((await ws.owner.api.get(url)).status);
  });
});
