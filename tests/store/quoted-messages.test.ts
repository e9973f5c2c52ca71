// A reply's original (or a link's message) asked of the server once per tab: the answer belongs to the
// whole path asked, so a link naming the message under the wrong channel does not hide it from a quote
// that names the right one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchQuoted } from '../../src/data/quoted-messages.ts';
import { makeChannel, restPost } from '../server/messaging-world.ts';
import { type EngineWorld, startEngineWorld } from './engine-world.ts';

let w: EngineWorld;

beforeAll(async () => {
  w = await startEngineWorld();
}, 60_000);

afterAll(async () => {
  await w?.close();
});

describe('a quoted message fetched from the server', () => {
  it('is found under its own channel after being asked for under another', async () => {
    const { ws } = w;
    const elsewhere = await makeChannel(ws.owner, ws);
    const original = await restPost(ws.owner, ws, ws.general.id, '<p>the original</p>');

    // A link typed with the wrong channel: no message of that channel.
    expect(await fetchQuoted(ws.id, elsewhere.id, original.id)).toEqual({ kind: 'missing' });

    const asked = await fetchQuoted(ws.id, ws.general.id, original.id);
    expect(asked.kind).toBe('found');
    expect(asked.kind === 'found' && asked.message.content).toBe('<p>the original</p>');
  });

  it('answers a message the reader may not see as missing, without asking twice', async () => {
    const { ws } = w;
    const secret = await makeChannel(ws.owner, ws, 'private');
    const hidden = await restPost(ws.owner, ws, secret.id, '<p>not for members</p>');
    const first = fetchQuoted(ws.id, secret.id, hidden.id);
    expect(fetchQuoted(ws.id, secret.id, hidden.id)).toBe(first);
    expect(await first).toEqual({ kind: 'missing' });
  });
});
