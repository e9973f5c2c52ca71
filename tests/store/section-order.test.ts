// Putting sidebar sections in a new order (decision 0055): where a dropped header lands, what Move up/down
// does at the ends, and that the order queued offline stays over a layout fetched from the server.
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxDoc } from '../../schemas/collections.ts';
import type { Section } from '../../schemas/protocol/index.ts';
import type { LanternDatabase } from '../../src/store/database.ts';
import { listRecords } from '../../src/store/records.ts';
import {
  queuedSectionOperations,
  queueSectionChange,
  type SectionOutboxCollections,
  storeSections,
} from '../../src/store/section-outbox.ts';
import { arrangeSidebar, placeSection, reorderSections, stepSection } from '../../src/store/sections.ts';
import { recordResult } from '../../worker/acknowledgement.ts';
import type { SyncDatabase } from '../../worker/sync-database.ts';
import { openTestDatabase } from './factories.ts';

const ORDER = ['channels', 'projects', 'clients', 'later'];

describe('a dropped section header', () => {
  it('goes just before the section it was dropped above', () => {
    expect(placeSection(ORDER, 'later', 'projects')).toEqual(['channels', 'later', 'projects', 'clients']);
    expect(placeSection(ORDER, 'channels', 'clients')).toEqual(['projects', 'channels', 'clients', 'later']);
  });

  it('goes last when dropped below the last section', () => {
    expect(placeSection(ORDER, 'projects', null)).toEqual(['channels', 'clients', 'later', 'projects']);
  });

  it('changes nothing when dropped on itself or with an id the sidebar does not have', () => {
    expect(placeSection(ORDER, 'projects', 'projects')).toEqual(ORDER);
    expect(placeSection(ORDER, 'gone', 'projects')).toEqual(ORDER);
    expect(placeSection(ORDER, 'projects', 'gone')).toEqual(ORDER);
  });
});

describe('Move up and Move down', () => {
  it('swap a section with its neighbour', () => {
    expect(stepSection(ORDER, 'clients', -1)).toEqual(['channels', 'clients', 'projects', 'later']);
    expect(stepSection(ORDER, 'clients', 1)).toEqual(['channels', 'projects', 'later', 'clients']);
  });

  it('do nothing at either end', () => {
    expect(stepSection(ORDER, 'channels', -1)).toEqual(ORDER);
    expect(stepSection(ORDER, 'later', 1)).toEqual(ORDER);
  });
});

// The stored layout, for the tests below: one store each, closed after it.
let db: LanternDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

const sections: Section[] = ORDER.map((id, position) => ({
  id,
  name: id,
  channels: [],
  position,
  isDefault: id === 'channels',
}));

/** The section ids in the order the sidebar shows them. */
const shown = async () =>
  arrangeSidebar(
    await listRecords(db as LanternDatabase, 'section', { institutionId: 'i1' }),
    [],
  ).sections.map((s) => s.section.id);

describe('a new order made offline', () => {
  it('shows at once, is queued, and stays over the server’s older layout until sent', async () => {
    db = await openTestDatabase(['records', 'outbox']);
    const order = stepSection(ORDER, 'later', -1);
    await queueSectionChange(db, 'i1', reorderSections(sections, order), {
      kind: 'sectionsReorder',
      sectionIds: order,
    });
    expect(await shown()).toEqual(['channels', 'projects', 'later', 'clients']);
    expect(await queuedSectionOperations(db, 'i1')).toEqual([
      { kind: 'sectionsReorder', sectionIds: ['channels', 'projects', 'later', 'clients'] },
    ]);
    // A refresh brings the server's layout from before the change: the queued order is laid over it.
    await storeSections(db, 'i1', sections);
    expect(await shown()).toEqual(['channels', 'projects', 'later', 'clients']);
  });
});

// Two quick moves (Alt+Shift+↑ twice): the worker stores the server's answer to the first while the tab
// queues the second. Whatever the interleaving, the sidebar must not go back to the first move's order, or
// the next key press moves a section from where it no longer is.
describe('a move made while the answer to the one before is stored', () => {
  /** The first move (later up one place), queued and then answered by the server with its layout. */
  async function firstMoveAnswered(store: LanternDatabase) {
    const first = stepSection(ORDER, 'later', -1);
    const serverAfterFirst = reorderSections(sections, first);
    await queueSectionChange(store, 'i1', serverAfterFirst, { kind: 'sectionsReorder', sectionIds: first });
    const [entry] = (await store.outbox.find().exec()).map((r) => r.toJSON() as OutboxDoc);
    if (!entry) throw new Error('the first move was not queued');
    const answer = () =>
      recordResult({ db: store, refreshSections: async () => {}, log: () => {} }, entry, {
        kind: 'applied',
        sections: serverAfterFirst,
      });
    return { first, serverAfterFirst, answer };
  }

  async function secondMove(store: SectionOutboxCollections, after: readonly Section[], order: string[]) {
    const second = stepSection(order, 'later', -1);
    await queueSectionChange(store, 'i1', reorderSections(after, second), {
      kind: 'sectionsReorder',
      sectionIds: second,
    });
    return second;
  }

  it('stays when the answer is stored just before the tab queues it', async () => {
    const store = await openTestDatabase(['records', 'outbox']);
    db = store;
    const { first, serverAfterFirst, answer } = await firstMoveAnswered(store);
    // The tab's writes, with the worker storing the answer just before the outbox row goes in.
    const outbox = store.outbox;
    const tab = {
      records: store.records,
      outbox: new Proxy(outbox, {
        get(target, key) {
          if (key === 'insert')
            return async (doc: OutboxDoc) => {
              await answer();
              return target.insert(doc);
            };
          const value = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
    };
    const second = await secondMove(tab, serverAfterFirst, first);
    expect(second).toEqual(['channels', 'later', 'projects', 'clients']);
    expect(await shown()).toEqual(second);
    expect(await queuedSectionOperations(store, 'i1')).toEqual([
      { kind: 'sectionsReorder', sectionIds: second },
    ]);
  });

  it('stays when the answer read the outbox before the tab queued it and is written after', async () => {
    const store = await openTestDatabase(['records', 'outbox']);
    db = store;
    const { first, serverAfterFirst } = await firstMoveAnswered(store);
    const [entry] = (await store.outbox.find().exec()).map((r) => r.toJSON() as OutboxDoc);
    if (!entry) throw new Error('the first move was not queued');
    // The worker's view of the outbox: its read of the queued changes returns what was there, and the tab's
    // whole second move happens before the worker goes on to write the layout.
    let second: string[] = [];
    const outbox = new Proxy(store.outbox, {
      get(target, key) {
        if (key === 'find')
          return (...args: Parameters<typeof target.find>) => {
            const query = target.find(...args);
            return {
              exec: async () => {
                const rows = await query.exec();
                if (!second.length) second = await secondMove(store, serverAfterFirst, first);
                return rows;
              },
            };
          };
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await recordResult(
      {
        db: { records: store.records, outbox } as unknown as SyncDatabase,
        refreshSections: async () => {},
        log: () => {},
      },
      entry,
      { kind: 'applied', sections: serverAfterFirst },
    );
    expect(second).toEqual(['channels', 'later', 'projects', 'clients']);
    expect(await shown()).toEqual(second);
  });
});
