// The sidebar's sections (spec §3): how joined channels are arranged, what each change makes of the
// layout, and how changes made offline stay visible over a layout fetched from the server.
import { afterEach, describe, expect, it } from 'vitest';
import type { Section } from '../../schemas/protocol/index.ts';
import type { LanternDatabase } from '../../src/store/database.ts';
import { listRecords } from '../../src/store/records.ts';
import {
  queuedSectionOperations,
  queueSectionChange,
  storeSections,
} from '../../src/store/section-outbox.ts';
import {
  arrangeSidebar,
  DEFAULT_SECTION_NAME,
  deleteSection,
  moveChannel,
  reorderSections,
} from '../../src/store/sections.ts';
import { makeChannel, openTestDatabase } from './factories.ts';

const channel = makeChannel;

function section(id: string, channels: string[], position: number, isDefault = false): Section {
  return { id, name: id, channels, position, isDefault };
}

const names = (layout: ReturnType<typeof arrangeSidebar>) =>
  layout.sections.map((s) => [s.section.id, s.channels.map((c) => c.id)]);

describe('arranging the sidebar', () => {
  const joined = [channel('general'), channel('random'), channel('design'), channel('alpha')];

  it('puts channels no section lists into the default section, after its own, by name', () => {
    const layout = arrangeSidebar(
      [section('home', ['random'], 0, true), section('work', ['design'], 1)],
      joined,
    );
    expect(names(layout)).toEqual([
      ['home', ['random', 'alpha', 'general']],
      ['work', ['design']],
    ]);
  });

  it('shows sections by position and a channel listed twice only in the first', () => {
    const layout = arrangeSidebar(
      [section('work', ['design'], 1), section('home', ['design', 'general'], 0, true)],
      joined,
    );
    expect(names(layout)[0]).toEqual(['home', ['design', 'general', 'alpha', 'random']]);
    expect(names(layout)[1]).toEqual(['work', []]);
  });

  it('shows one default section with every channel before the server layout is known', () => {
    const layout = arrangeSidebar([], joined);
    expect(layout.sections).toHaveLength(1);
    expect(layout.sections[0]?.section.name).toBe(DEFAULT_SECTION_NAME);
    expect(layout.sections[0]?.channels.map((c) => c.id)).toEqual(['alpha', 'design', 'general', 'random']);
  });

  it('keeps direct messages out of sections, most recent first, and marks collapsed sections', () => {
    const older = channel('dm-old', {
      type: 'direct_message',
      lastSentMessage: { id: 'x', createdAt: '2026-02-01' },
    });
    const newer = channel('dm-new', {
      type: 'direct_message',
      lastSentMessage: { id: 'y', createdAt: '2026-03-01' },
    });
    const layout = arrangeSidebar(
      [section('home', [], 0, true)],
      [...joined, older, newer],
      new Set(['home']),
    );
    expect(layout.directMessages.map((c) => c.id)).toEqual(['dm-new', 'dm-old']);
    expect(layout.sections[0]?.collapsed).toBe(true);
    expect(layout.sections[0]?.channels.some((c) => c.type === 'direct_message')).toBe(false);
  });
});

describe('changing the layout', () => {
  const joined = [channel('a'), channel('b'), channel('c')];
  const sections = [section('home', [], 0, true), section('work', ['c'], 1)];

  it('moves a channel into another section and out of the default one, keeping what was displayed', () => {
    const next = moveChannel(arrangeSidebar(sections, joined), 'a', 'work', 0);
    expect(next.map((s) => [s.id, s.channels])).toEqual([
      ['home', ['b']],
      ['work', ['a', 'c']],
    ]);
  });

  it('moves a channel down within its own section to the place it was dropped', () => {
    const next = moveChannel(arrangeSidebar(sections, joined), 'a', 'home', 2);
    expect(next[0]?.channels).toEqual(['b', 'a']);
  });

  it('returns a deleted section’s channels to the default section, and never deletes the default', () => {
    const next = deleteSection([section('home', ['a'], 0, true), section('work', ['c', 'b'], 1)], 'work');
    expect(next.map((s) => [s.id, s.channels])).toEqual([['home', ['a', 'c', 'b']]]);
    expect(deleteSection(next, 'home')).toHaveLength(1);
  });

  it('reorders sections, keeping the ones not named after the named ones', () => {
    const next = reorderSections(
      [section('home', [], 0, true), section('work', [], 1), section('play', [], 2)],
      ['play'],
    );
    expect(next.map((s) => [s.id, s.position])).toEqual([
      ['play', 0],
      ['home', 1],
      ['work', 2],
    ]);
  });
});

describe('changes made offline', () => {
  let db: LanternDatabase | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it('are in the store at once, queued in order, and survive a fresh layout from the server', async () => {
    db = await openTestDatabase();
    const server = [section('home', [], 0, true), section('work', [], 1)];
    await storeSections(db, 'i1', server);
    const moved = moveChannel(arrangeSidebar(server, [channel('a'), channel('b')]), 'a', 'work');
    await queueSectionChange(db, 'i1', moved, {
      kind: 'sectionsLayout',
      sections: moved.map((s) => ({ id: s.id, channels: s.channels })),
    });
    const renamed = moved.map((s) => (s.id === 'work' ? { ...s, name: 'Projects' } : s));
    await queueSectionChange(db, 'i1', renamed, {
      kind: 'sectionRename',
      sectionId: 'work',
      name: 'Projects',
    });

    expect((await queuedSectionOperations(db, 'i1')).map((o) => o.kind)).toEqual([
      'sectionsLayout',
      'sectionRename',
    ]);
    // A refresh from the server (which has not seen the changes yet) must not undo them on screen.
    await storeSections(db, 'i1', server);
    const stored = await listRecords(db, 'section', { institutionId: 'i1' });
    const work = stored.find((s) => s.id === 'work');
    expect(work).toMatchObject({ name: 'Projects', channels: ['a'] });
    expect(stored.find((s) => s.id === 'home')?.channels).toEqual(['b']);
  });
});
