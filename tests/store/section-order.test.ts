// Putting sidebar sections in a new order (decision 0055): where a dropped header lands, what Move up/down
// does at the ends, and that the order queued offline stays over a layout fetched from the server.
import { afterEach, describe, expect, it } from 'vitest';
import type { Section } from '../../schemas/protocol/index.ts';
import type { LanternDatabase } from '../../src/store/database.ts';
import { listRecords } from '../../src/store/records.ts';
import {
  queuedSectionOperations,
  queueSectionChange,
  storeSections,
} from '../../src/store/section-outbox.ts';
import { arrangeSidebar, placeSection, reorderSections, stepSection } from '../../src/store/sections.ts';
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

describe('a new order made offline', () => {
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

  it('shows at once, is queued, and stays over the server’s older layout until sent', async () => {
    db = await openTestDatabase(['records', 'outbox']);
    const order = stepSection(ORDER, 'later', -1);
    await queueSectionChange(db, 'i1', reorderSections(sections, order), {
      kind: 'sectionsReorder',
      sectionIds: order,
    });
    const shown = async () =>
      arrangeSidebar(
        await listRecords(db as LanternDatabase, 'section', { institutionId: 'i1' }),
        [],
      ).sections.map((s) => s.section.id);
    expect(await shown()).toEqual(['channels', 'projects', 'later', 'clients']);
    expect(await queuedSectionOperations(db, 'i1')).toEqual([
      { kind: 'sectionsReorder', sectionIds: ['channels', 'projects', 'later', 'clients'] },
    ]);
    // A refresh brings the server's layout from before the change: the queued order is laid over it.
    await storeSections(db, 'i1', sections);
    expect(await shown()).toEqual(['channels', 'projects', 'later', 'clients']);
  });
});
