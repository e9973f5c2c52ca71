// The sidebar's sections (spec §3 Channel section) as pure functions over the stored layout: how joined
// channels are arranged, and what each change (create, rename, delete, reorder, move) makes of the
// layout. Actions apply these to the store at once (offline too) and queue the same change for the server.
import type { ChannelDoc, SectionOperation } from '../../schemas/collections.ts';
import type { Section } from '../../schemas/protocol/index.ts';

/** The default section's name when the store has no sections yet (first start, offline). */
export const DEFAULT_SECTION_NAME = 'Channels';
/** Id of the stand-in default section shown before the server's layout is known. */
export const PLACEHOLDER_SECTION_ID = 'default';

export interface SidebarSection {
  section: Section;
  channels: ChannelDoc[];
  /** Local only; expanded by default. */
  collapsed: boolean;
}

export interface SidebarLayout {
  sections: SidebarSection[];
  /** Direct messages are not sectioned: most recent first. */
  directMessages: ChannelDoc[];
}

const byPosition = (a: Section, b: Section) => a.position - b.position || a.name.localeCompare(b.name);

/**
 * Sections in their order, each with its joined channels in the stored order; joined channels no
 * section lists fall into the default section after the listed ones, by name. A channel listed twice
 * (two offline moves racing) shows once, in the first section.
 */
export function arrangeSidebar(
  sections: readonly Section[],
  joined: readonly ChannelDoc[],
  collapsed: ReadonlySet<string> = new Set(),
): SidebarLayout {
  const channels = new Map(joined.filter((c) => c.type !== 'direct_message').map((c) => [c.id, c]));
  const list = sections.length
    ? [...sections].sort(byPosition)
    : [
        {
          id: PLACEHOLDER_SECTION_ID,
          name: DEFAULT_SECTION_NAME,
          channels: [],
          position: 0,
          isDefault: true,
        },
      ];
  const placed = new Set<string>();
  const arranged = list.map((section) => {
    const own: ChannelDoc[] = [];
    for (const id of section.channels) {
      const channel = channels.get(id);
      if (!channel || placed.has(id)) continue;
      placed.add(id);
      own.push(channel);
    }
    return { section, channels: own, collapsed: collapsed.has(section.id) };
  });
  const rest = [...channels.values()]
    .filter((c) => !placed.has(c.id))
    .sort((a, b) => a.name.localeCompare(b.name));
  const home = arranged.find((s) => s.section.isDefault) ?? arranged[0];
  home?.channels.push(...rest);
  const directMessages = joined
    .filter((c) => c.type === 'direct_message')
    .sort((a, b) => latestFirst(a, b) || a.id.localeCompare(b.id));
  return { sections: arranged, directMessages };
}

/**
 * Conversations by their latest message, newest first; one without messages by when it was opened
 * (decision 0083). Ties are left to the caller.
 */
export function latestFirst(a: ChannelDoc, b: ChannelDoc): number {
  return latestOf(b).localeCompare(latestOf(a));
}

/** When a conversation last had a message, or was opened when it has none (decision 0083). */
export function latestOf(channel: Pick<ChannelDoc, 'lastSentMessage' | 'createdAt'>): string {
  return channel.lastSentMessage?.createdAt ?? channel.createdAt;
}

/** The layout as the person sees it: every section's channel ids, unplaced channels written into the default one. */
export function displayedLayout(layout: SidebarLayout): Section[] {
  return layout.sections.map(({ section, channels }) => ({
    ...section,
    channels: channels.map((c) => c.id),
  }));
}

/**
 * Moves a channel into `toSectionId` at `index` of that section's displayed list (end when omitted),
 * out of any other section. Works on the displayed layout so unplaced channels keep their place.
 */
export function moveChannel(
  layout: SidebarLayout,
  channelId: string,
  toSectionId: string,
  index?: number,
): Section[] {
  return displayedLayout(layout).map((section) => {
    if (section.id !== toSectionId)
      return { ...section, channels: section.channels.filter((id) => id !== channelId) };
    const from = section.channels.indexOf(channelId);
    const without = section.channels.filter((id) => id !== channelId);
    let at = index ?? without.length;
    // Dropping below its own old place: the list shrank by one above the target.
    if (from !== -1 && index !== undefined && from < index) at -= 1;
    without.splice(Math.max(0, Math.min(at, without.length)), 0, channelId);
    return { ...section, channels: without };
  });
}

/** A new section goes last; channels named in it leave their old sections. */
export function createSection(
  sections: readonly Section[],
  created: { id: string; name: string; channels: string[] },
): Section[] {
  const moved = new Set(created.channels);
  const position = sections.reduce((max, s) => Math.max(max, s.position + 1), 0);
  return [
    ...sections.map((s) => ({ ...s, channels: s.channels.filter((id) => !moved.has(id)) })),
    { ...created, position, isDefault: false },
  ];
}

export function renameSection(sections: readonly Section[], sectionId: string, name: string): Section[] {
  return sections.map((s) => (s.id === sectionId ? { ...s, name } : s));
}

/** Deleting a section returns its channels to the default section (the default one cannot be deleted). */
export function deleteSection(sections: readonly Section[], sectionId: string): Section[] {
  const gone = sections.find((s) => s.id === sectionId);
  if (!gone || gone.isDefault) return [...sections];
  const rest = sections.filter((s) => s.id !== sectionId);
  const home = rest.find((s) => s.isDefault);
  return rest.map((s) =>
    s === home
      ? { ...s, channels: [...s.channels, ...gone.channels.filter((id) => !s.channels.includes(id))] }
      : s,
  );
}

/** Positions follow `sectionIds`; sections it leaves out keep their relative order after them. */
export function reorderSections(sections: readonly Section[], sectionIds: readonly string[]): Section[] {
  const rank = new Map(sectionIds.map((id, i) => [id, i]));
  const ordered = [...sections].sort(
    (a, b) =>
      (rank.get(a.id) ?? sectionIds.length) - (rank.get(b.id) ?? sectionIds.length) || byPosition(a, b),
  );
  return ordered.map((s, position) => ({ ...s, position }));
}

/**
 * The section order after putting `sectionId` just before `beforeId` (last when null): what a drop of a
 * dragged section header asks for. An unknown id leaves the order as it is.
 */
export function placeSection(order: readonly string[], sectionId: string, beforeId: string | null): string[] {
  if (!order.includes(sectionId) || sectionId === beforeId) return [...order];
  const rest = order.filter((id) => id !== sectionId);
  const at = beforeId === null ? rest.length : rest.indexOf(beforeId);
  if (at === -1) return [...order];
  rest.splice(at, 0, sectionId);
  return rest;
}

/** The section order after moving `sectionId` one place up (-1) or down (+1); at either end it stays. */
export function stepSection(order: readonly string[], sectionId: string, step: -1 | 1): string[] {
  const from = order.indexOf(sectionId);
  const to = from + step;
  if (from === -1 || to < 0 || to >= order.length) return [...order];
  const next = [...order];
  next.splice(from, 1);
  next.splice(to, 0, sectionId);
  return next;
}

/** What a queued change makes of a layout (used to lay changes not yet sent over the server's copy). */
export function applySectionOperation(sections: readonly Section[], op: SectionOperation): Section[] {
  switch (op.kind) {
    case 'sectionCreate':
      return sections.some((s) => s.id === op.sectionId)
        ? [...sections]
        : createSection(sections, { id: op.sectionId, name: op.name, channels: op.channels });
    case 'sectionRename':
      return renameSection(sections, op.sectionId, op.name);
    case 'sectionDelete':
      return deleteSection(sections, op.sectionId);
    case 'sectionsReorder':
      return reorderSections(sections, op.sectionIds);
    case 'sectionsLayout': {
      const lists = new Map(op.sections.map((s) => [s.id, s.channels]));
      const listed = new Set(op.sections.flatMap((s) => s.channels));
      // Sections the change does not name lose the channels it places elsewhere.
      return sections.map((s) => ({
        ...s,
        channels: lists.get(s.id) ?? s.channels.filter((id) => !listed.has(id)),
      }));
    }
  }
}
