// Sidebar sections: each member arranges the channels they joined into named sections of their own. A
// default section ("Channels") is created on first read and shows every joined channel in no section.
// Every change answers with the caller's whole layout and tells their other devices to reload it.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, max, or } from 'drizzle-orm';
import {
  type CreateSectionBody,
  type ReplaceSectionsBody,
  SECTIONS_MAX,
  type Section,
  type UpdateSectionBody,
} from '../../schemas/protocol/index.ts';
import { type MemberRow, requireMember } from '../access.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { channelMembers, channelSectionChannels, channelSections, channels, members } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../errors.ts';

export const DEFAULT_SECTION_NAME = 'Channels';

type Ctx = Pick<AppContext, 'db' | 'broadcast'>;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type SectionRow = typeof channelSections.$inferSelect;

/** Creates the member's default section unless it exists (a partial unique index settles races). */
async function ensureDefaultSection(db: Db | Tx, member: MemberRow): Promise<void> {
  await db
    .insert(channelSections)
    .values({
      id: randomUUID(),
      institutionId: member.institutionId,
      memberId: member.id,
      name: DEFAULT_SECTION_NAME,
      position: 0,
      isDefault: true,
    })
    .onConflictDoNothing();
}

/** Ids of the channels of this workspace the member has joined, by name. */
async function joinedChannelIds(db: Db | Tx, member: MemberRow): Promise<string[]> {
  const rows = await db
    .select({ id: channels.id })
    .from(channelMembers)
    .innerJoin(channels, eq(channels.id, channelMembers.channelId))
    .where(and(eq(channelMembers.memberId, member.id), eq(channels.institutionId, member.institutionId)))
    .orderBy(asc(channels.name), asc(channels.id));
  return rows.map((r) => r.id);
}

async function sectionRows(db: Db | Tx, member: MemberRow): Promise<SectionRow[]> {
  return db
    .select()
    .from(channelSections)
    .where(eq(channelSections.memberId, member.id))
    .orderBy(asc(channelSections.position), asc(channelSections.createdAt), asc(channelSections.id));
}

/** The member's layout. Channels left since they were placed are not shown. */
async function layout(db: Db | Tx, member: MemberRow): Promise<Section[]> {
  await ensureDefaultSection(db, member);
  const [sections, entries, joined] = [
    await sectionRows(db, member),
    await db
      .select()
      .from(channelSectionChannels)
      .where(eq(channelSectionChannels.memberId, member.id))
      .orderBy(asc(channelSectionChannels.position)),
    await joinedChannelIds(db, member),
  ];
  const isJoined = new Set(joined);
  const placed = new Set<string>();
  const bySection = new Map<string, string[]>();
  for (const entry of entries) {
    if (!isJoined.has(entry.channelId)) continue;
    placed.add(entry.channelId);
    bySection.set(entry.sectionId, [...(bySection.get(entry.sectionId) ?? []), entry.channelId]);
  }
  const unplaced = joined.filter((id) => !placed.has(id));
  return sections.map((row, index) => ({
    id: row.id,
    name: row.name,
    channels: [...(bySection.get(row.id) ?? []), ...(row.isDefault ? unplaced : [])],
    position: index,
    isDefault: row.isDefault,
  }));
}

/**
 * Runs a change to the caller's sections in a transaction that holds their member row, so two devices
 * moving channels at once take turns instead of colliding on the one-section-per-channel index.
 */
async function change(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  run: (tx: Tx, member: MemberRow) => Promise<void>,
): Promise<Section[]> {
  const member = await requireMember(ctx.db, institutionId, userId);
  const sections = await ctx.db.transaction(async (tx) => {
    await tx.select({ id: members.id }).from(members).where(eq(members.id, member.id)).for('update');
    await ensureDefaultSection(tx, member);
    await run(tx, member);
    return layout(tx, member);
  });
  ctx.broadcast.toUser(userId, 'refresh', { value: 'sections' });
  return sections;
}

/** A section of the caller; another person's section (or another workspace's) is not found. */
async function ownSection(tx: Tx, member: MemberRow, sectionId: string): Promise<SectionRow> {
  const [row] = await tx
    .select()
    .from(channelSections)
    .where(and(eq(channelSections.id, sectionId), eq(channelSections.memberId, member.id)))
    .limit(1);
  if (!row) throw notFound('Section not found');
  return row;
}

async function assertJoined(tx: Tx, member: MemberRow, channelIds: string[]): Promise<void> {
  if (channelIds.length === 0) return;
  const joined = new Set(await joinedChannelIds(tx, member));
  if (channelIds.some((id) => !joined.has(id)))
    throw badRequest('Only channels you have joined can be placed in a section');
}

/** Puts channels (in this order) into sections, taking them out of whichever section held them. */
async function place(tx: Tx, member: MemberRow, placements: { sectionId: string; channels: string[] }[]) {
  const all = placements.flatMap((p) => p.channels);
  if (new Set(all).size !== all.length) throw badRequest('A channel can be in only one section');
  await assertJoined(tx, member, all);
  const sectionIds = placements.map((p) => p.sectionId);
  await tx
    .delete(channelSectionChannels)
    .where(
      and(
        eq(channelSectionChannels.memberId, member.id),
        or(
          inArray(channelSectionChannels.sectionId, sectionIds),
          all.length ? inArray(channelSectionChannels.channelId, all) : undefined,
        ),
      ),
    );
  const rows = placements.flatMap((p) =>
    p.channels.map((channelId, position) => ({
      sectionId: p.sectionId,
      memberId: member.id,
      channelId,
      position,
    })),
  );
  if (rows.length) await tx.insert(channelSectionChannels).values(rows);
}

const unique = (ids: string[]) => [...new Set(ids)];

export async function listSections(db: Db, userId: string, institutionId: string): Promise<Section[]> {
  const member = await requireMember(db, institutionId, userId);
  return layout(db, member);
}

/**
 * A new section at the end. With a client-chosen id a replayed call finds the section already there and
 * changes nothing (`created` false); that id on someone else's section is a conflict.
 */
export async function createSection(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  body: CreateSectionBody,
): Promise<{ data: Section[]; section: Section; created: boolean }> {
  const sectionId = body.id ?? randomUUID();
  let created = false;
  const data = await change(ctx, userId, institutionId, async (tx, member) => {
    const [existing] = await tx
      .select()
      .from(channelSections)
      .where(eq(channelSections.id, sectionId))
      .limit(1);
    if (existing) {
      if (existing.memberId !== member.id) throw conflict('This section id is taken');
      return;
    }
    const [count] = await tx
      .select({ last: max(channelSections.position) })
      .from(channelSections)
      .where(eq(channelSections.memberId, member.id));
    const sections = await sectionRows(tx, member);
    if (sections.length >= SECTIONS_MAX) throw badRequest(`At most ${SECTIONS_MAX} sections`);
    await tx.insert(channelSections).values({
      id: sectionId,
      institutionId,
      memberId: member.id,
      name: body.name,
      position: (count?.last ?? 0) + 1,
    });
    created = true;
    if (body.channels?.length) await place(tx, member, [{ sectionId, channels: unique(body.channels) }]);
  });
  const section = data.find((s) => s.id === sectionId);
  if (!section) throw new Error('created section missing from layout');
  return { data, section, created };
}

/** Renames a section and/or sets its channels (in order); channels moved here leave their old section. */
export async function updateSection(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  sectionId: string,
  body: UpdateSectionBody,
): Promise<Section[]> {
  return change(ctx, userId, institutionId, async (tx, member) => {
    await ownSection(tx, member, sectionId);
    if (body.name !== undefined)
      await tx.update(channelSections).set({ name: body.name }).where(eq(channelSections.id, sectionId));
    if (body.channels !== undefined)
      await place(tx, member, [{ sectionId, channels: unique(body.channels) }]);
  });
}

/** Sets the channels of several sections at once (an offline client's last arrangement). */
export async function replaceSections(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  body: ReplaceSectionsBody,
): Promise<Section[]> {
  return change(ctx, userId, institutionId, async (tx, member) => {
    const ids = body.sections.map((s) => s.id);
    if (new Set(ids).size !== ids.length) throw badRequest('A section is listed twice');
    for (const id of ids) await ownSection(tx, member, id);
    if (ids.length)
      await place(
        tx,
        member,
        body.sections.map((s) => ({ sectionId: s.id, channels: unique(s.channels) })),
      );
  });
}

/** Listed sections first, in the given order; any not listed keep their order after them. */
export async function reorderSections(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  sectionIds: string[],
): Promise<Section[]> {
  return change(ctx, userId, institutionId, async (tx, member) => {
    if (new Set(sectionIds).size !== sectionIds.length) throw badRequest('A section is listed twice');
    const current = await sectionRows(tx, member);
    const known = new Set(current.map((s) => s.id));
    if (sectionIds.some((id) => !known.has(id))) throw notFound('Section not found');
    const order = [...sectionIds, ...current.map((s) => s.id).filter((id) => !sectionIds.includes(id))];
    for (const [position, id] of order.entries())
      await tx.update(channelSections).set({ position }).where(eq(channelSections.id, id));
  });
}

/** Deletes a section; its channels go to the end of the default section. The default one stays. */
export async function deleteSection(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  sectionId: string,
): Promise<Section[]> {
  return change(ctx, userId, institutionId, async (tx, member) => {
    const section = await ownSection(tx, member, sectionId);
    if (section.isDefault) throw badRequest('The default section cannot be deleted');
    const [fallback] = await tx
      .select()
      .from(channelSections)
      .where(and(eq(channelSections.memberId, member.id), eq(channelSections.isDefault, true)))
      .limit(1);
    if (!fallback) throw new Error('default section missing');
    const [moving, kept] = [
      await tx
        .select()
        .from(channelSectionChannels)
        .where(eq(channelSectionChannels.sectionId, sectionId))
        .orderBy(asc(channelSectionChannels.position)),
      await tx
        .select({ last: max(channelSectionChannels.position) })
        .from(channelSectionChannels)
        .where(eq(channelSectionChannels.sectionId, fallback.id)),
    ];
    const start = (kept[0]?.last ?? -1) + 1;
    await tx.delete(channelSections).where(eq(channelSections.id, sectionId));
    if (moving.length)
      await tx.insert(channelSectionChannels).values(
        moving.map((entry, i) => ({
          sectionId: fallback.id,
          memberId: member.id,
          channelId: entry.channelId,
          position: start + i,
        })),
      );
  });
}
