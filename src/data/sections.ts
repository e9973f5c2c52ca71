// The caller's sidebar sections: the layout with its channels, and creating, renaming, deleting and
// reordering sections and moving channels between them. Changes apply to the store at once and are queued
// in the outbox, so they work offline; whether a section is collapsed stays on this device.
import type { ChannelDoc } from '../../schemas/collections.ts';
import type { Section } from '../../schemas/protocol/index.ts';
import { newGenId } from '../store/gen-id.ts';
import { listRecords, putRecord, removeRecord } from '../store/records.ts';
import { queueSectionChange } from '../store/section-outbox.ts';
import * as sectionRules from '../store/sections.ts';
import type { SidebarView } from '../store/sidebar.ts';
import { requireClient, requireConnection } from './client.ts';
import { useRefreshOnMount } from './live-query.ts';
import { useStoreRead } from './store-reads.ts';

/**
 * The caller's sidebar: sections in order with their joined channels (unplaced channels in the default
 * section), each with its local collapsed state, and the direct messages. Refreshed from the server on mount.
 */
export function useSections(institutionId: string): SidebarView | undefined {
  useRefreshOnMount(institutionId, () => refreshSections(institutionId));
  return useStoreRead('sidebar', { institutionId });
}

/** The caller's sections from the server; changes still queued offline are laid over them. */
export async function refreshSections(institutionId: string): Promise<void> {
  await (await requireConnection()).worker.refreshStore({ kind: 'sections', institutionId });
}

/**
 * This tab's section changes, one after another: each reads the layout the one before it stored. Two read
 * at once would both start from the same layout and the second would undo the first (Alt+Shift+↑ pressed
 * twice before the sidebar has drawn the first move).
 */
let lastChange: Promise<unknown> = Promise.resolve();
function inTurn<T>(change: () => Promise<T>): Promise<T> {
  const run = lastChange.then(change, change);
  lastChange = run.catch(() => undefined);
  return run;
}

async function currentLayout(institutionId: string) {
  const { db } = await requireClient();
  const sections = await listRecords(db, 'section', { institutionId });
  const memberships = new Set((await db.channelMembers.find().exec()).map((m) => m.channelId));
  const channels = (await db.channels.find({ selector: { institutionId } }).exec())
    .map((c) => c.toJSON() as ChannelDoc)
    .filter((c) => memberships.has(c.id));
  return { sections, layout: sectionRules.arrangeSidebar(sections, channels) };
}

/** Creates a section (last), optionally with channels; works offline (the id is made here). */
export function createSection(
  institutionId: string,
  name: string,
  channelIds: string[] = [],
): Promise<Section> {
  return inTurn(async () => {
    const { db, worker } = await requireClient();
    const { sections } = await currentLayout(institutionId);
    const sectionId = newGenId();
    const next = sectionRules.createSection(sections, {
      id: sectionId,
      name: name.trim(),
      channels: channelIds,
    });
    await queueSectionChange(db, institutionId, next, {
      kind: 'sectionCreate',
      sectionId,
      name: name.trim(),
      channels: channelIds,
    });
    void worker.drainOutbox();
    return next.find((s) => s.id === sectionId) as Section;
  });
}

export function renameSection(institutionId: string, sectionId: string, name: string): Promise<void> {
  return inTurn(async () => {
    const { db, worker } = await requireClient();
    const { sections } = await currentLayout(institutionId);
    const next = sectionRules.renameSection(sections, sectionId, name.trim());
    await queueSectionChange(db, institutionId, next, {
      kind: 'sectionRename',
      sectionId,
      name: name.trim(),
    });
    void worker.drainOutbox();
  });
}

/** Deletes a section; its channels return to the default section. */
export function deleteSection(institutionId: string, sectionId: string): Promise<void> {
  return inTurn(async () => {
    const { db, worker } = await requireClient();
    const { sections } = await currentLayout(institutionId);
    const next = sectionRules.deleteSection(sections, sectionId);
    await queueSectionChange(db, institutionId, next, { kind: 'sectionDelete', sectionId });
    await removeRecord(db, 'sectionCollapsed', sectionId);
    void worker.drainOutbox();
  });
}

/** Moves a channel into a section at `index` of its displayed list (end when omitted); works offline. */
export function moveChannelToSection(
  institutionId: string,
  channelId: string,
  sectionId: string,
  index?: number,
): Promise<void> {
  return inTurn(async () => {
    const { db, worker } = await requireClient();
    const { layout } = await currentLayout(institutionId);
    // Before the server's layout is known there is only the stand-in section: nothing to move.
    if (sectionId === sectionRules.PLACEHOLDER_SECTION_ID) return;
    const next = sectionRules.moveChannel(layout, channelId, sectionId, index);
    await queueSectionChange(db, institutionId, next, {
      kind: 'sectionsLayout',
      sections: next.map((s) => ({ id: s.id, channels: s.channels })),
    });
    void worker.drainOutbox();
  });
}

/**
 * Puts the sections in the order `arrange` makes of the order shown (a drag of a header, Move up/down);
 * works offline. Resolves to the new order, or null when nothing moved.
 */
export function reorderSections(
  institutionId: string,
  arrange: (shown: readonly string[]) => string[],
): Promise<string[] | null> {
  return inTurn(async () => {
    const { db, worker } = await requireClient();
    const { sections, layout } = await currentLayout(institutionId);
    // Before the server's layout is known there is only the stand-in section: nothing to order.
    if (sections.length < 2) return null;
    const shown = layout.sections.map((s) => s.section.id);
    const sectionIds = arrange(shown);
    if (sectionIds.join(',') === shown.join(',')) return null;
    const next = sectionRules.reorderSections(sections, sectionIds);
    await queueSectionChange(db, institutionId, next, { kind: 'sectionsReorder', sectionIds });
    void worker.drainOutbox();
    return sectionIds;
  });
}

/** Local only: collapse or expand a section (expanded by default). */
export async function setSectionCollapsed(
  institutionId: string,
  sectionId: string,
  collapsed: boolean,
): Promise<void> {
  const { db } = await requireClient();
  if (!collapsed) await removeRecord(db, 'sectionCollapsed', sectionId);
  else
    await putRecord(
      db,
      'sectionCollapsed',
      { sectionId, collapsed },
      { scope: institutionId, institutionId },
    );
}
