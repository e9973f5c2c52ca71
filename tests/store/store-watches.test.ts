// The tab's store reads made by its worker (decision 0065), on a real store (fake-indexeddb): a tab opens
// its result sink, starts named reads, and sees each change as its worker's store sees it until it stops.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LanternDatabase, openLanternDatabase } from '../../src/store/database.ts';
import type { StoreResult } from '../../worker/api.ts';
import { applyChange } from '../../worker/store-changes.ts';
import { storeReadHandlers } from '../../worker/store-watches.ts';
import { eventually } from '../server/messaging-world.ts';

let db: LanternDatabase;

beforeAll(async () => {
  db = await openLanternDatabase(`store-watches-${randomUUID()}`);
});

afterAll(async () => {
  await db.close();
});

const ports: MessagePort[] = [];

afterAll(() => {
  for (const port of ports) port.close();
});

/** A tab's side, on a real MessageChannel as the browser's client has: every result, and what it holds. */
function tabSink() {
  const results: StoreResult[] = [];
  const held = new Map<string, unknown>();
  const channel = new MessageChannel();
  ports.push(channel.port1, channel.port2);
  channel.port1.onmessage = (event: MessageEvent<StoreResult>) => {
    const result = event.data;
    results.push(result);
    if ('change' in result) held.set(result.watchId, applyChange(held.get(result.watchId), result.change));
  };
  return { results, held, sink: channel.port2 };
}

const session = (name: string) => ({
  id: 'current' as const,
  token: `token-${name}`,
  user: { id: 'u1', name, email: 'ada@example.com' } as never,
  selectedInstitutionId: null,
});

describe('store reads served by the worker', () => {
  it('sends the first result, then each change, and stops when the tab stops the read', async () => {
    const handlers = storeReadHandlers(async () => db, null);
    const tab = tabSink();
    await handlers.openStore('tab-1', tab.sink);
    await handlers.watchStore('tab-1', 'w1', 'session', {});
    await eventually(() => tab.held.has('w1'));
    expect(tab.held.get('w1')).toBeNull();

    await db.session.upsert(session('Ada'));
    await eventually(() => (tab.held.get('w1') as { user?: { name: string } } | null)?.user?.name === 'Ada');
    expect(tab.held.get('w1')).toEqual({ token: 'token-Ada', user: session('Ada').user });

    await handlers.unwatchStore('tab-1', 'w1');
    const sent = tab.results.length;
    await db.session.upsert(session('Grace'));
    await new Promise((r) => setTimeout(r, 200));
    expect(tab.results.length).toBe(sent);
  });

  it('tells the tab when the worker’s store cannot open, so the page can show its error page', async () => {
    const handlers = storeReadHandlers(
      () => Promise.reject(new Error('The database on this device is newer than this app.')),
      null,
    );
    await expect(handlers.openStore('tab-x', tabSink().sink)).rejects.toThrow(/newer than this app/);
    // And a store that opens answers the tab's open.
    await expect(storeReadHandlers(async () => db, null).openStore('tab-y', tabSink().sink)).resolves.toBe(
      undefined,
    );
  });

  it('keeps each tab’s reads to that tab', async () => {
    const handlers = storeReadHandlers(async () => db, null);
    const one = tabSink();
    const two = tabSink();
    await handlers.openStore('tab-a', one.sink);
    await handlers.openStore('tab-b', two.sink);
    await handlers.watchStore('tab-a', 'w1', 'settings', {});
    await eventually(() => one.held.has('w1'));
    expect(two.results).toEqual([]);
    expect(one.held.get('w1')).toMatchObject({ id: 'settings' });
  });

  it('sends nothing more down a port a second open replaced', async () => {
    const handlers = storeReadHandlers(async () => db, null);
    const first = tabSink();
    const second = tabSink();
    await handlers.openStore('tab-r', first.sink);
    await handlers.watchStore('tab-r', 'w1', 'session', {});
    await eventually(() => first.held.has('w1'));
    // The tab opens its store again (a retry): the first port's reads stop with it.
    await handlers.openStore('tab-r', second.sink);
    await handlers.watchStore('tab-r', 'w1', 'session', {});
    await eventually(() => second.held.has('w1'));
    const sent = first.results.length;
    await db.session.upsert(session('Noor'));
    await eventually(
      () => (second.held.get('w1') as { user?: { name: string } } | null)?.user?.name === 'Noor',
    );
    expect(first.results.length).toBe(sent);
  });

  it('refuses a read that is not one of the named reads, a tab that has not opened its port, and a port that is not one', async () => {
    const handlers = storeReadHandlers(async () => db, null);
    const tab = tabSink();
    await handlers.openStore('tab-x', tab.sink);
    await expect(handlers.watchStore('tab-x', 'w1', 'constructor' as never, {})).rejects.toThrow(
      /No store read is named/,
    );
    await expect(handlers.watchStore('tab-unknown', 'w1', 'session', {})).rejects.toThrow(/openStore/);
    // A tab that sends something else than a port for its results is refused, and has opened nothing.
    await expect(handlers.openStore('tab-z', { postMessage: 'no' } as never)).rejects.toThrow(/MessagePort/);
    await expect(handlers.watchStore('tab-z', 'w1', 'session', {})).rejects.toThrow(/openStore/);
  });
});
