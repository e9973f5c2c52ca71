// Workspace groups: named, mentionable sets of members. Every member may list them; only workspace
// administrators (schemas/permissions.ts: canManageGroups) create, rename, delete and fill them.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { workspacePermissions } from '../../schemas/permissions.ts';
import type { Group, GroupEmailsBody } from '../../schemas/protocol/index.ts';
import { type MemberRow, requireMember } from '../access.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { groupMembers, groups, members, users } from '../db/schema.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import { isUniqueViolation } from '../messages/unique-violation.ts';

export type GroupRow = typeof groups.$inferSelect;

/** A group in its wire shape, with its member ids (a separate table). */
export const toGroup = (row: GroupRow, memberIds: string[]): Group => ({
  id: row.id,
  institutionId: row.institutionId,
  name: row.name,
  createdBy: row.createdBy,
  memberIds,
  createdAt: row.createdAt.toISOString(),
});

type Ctx = Pick<AppContext, 'db' | 'broadcast'>;

async function groupViews(db: Db, rows: GroupRow[]): Promise<Group[]> {
  const ids = rows.map((r) => r.id);
  const links = ids.length
    ? await db
        .select()
        .from(groupMembers)
        .where(inArray(groupMembers.groupId, ids))
        .orderBy(asc(groupMembers.createdAt), asc(groupMembers.memberId))
    : [];
  const membersOf = new Map<string, string[]>();
  for (const link of links)
    membersOf.set(link.groupId, [...(membersOf.get(link.groupId) ?? []), link.memberId]);
  return rows.map((row) => toGroup(row, membersOf.get(row.id) ?? []));
}

async function groupView(db: Db, row: GroupRow): Promise<Group> {
  const [view] = await groupViews(db, [row]);
  if (!view) throw new Error('group view missing');
  return view;
}

async function requireGroupManager(db: Db, institutionId: string, userId: string): Promise<MemberRow> {
  const member = await requireMember(db, institutionId, userId);
  if (!workspacePermissions(member.role).canManageGroups)
    throw forbidden('Only workspace owners and admins can manage groups');
  return member;
}

/** A group of this workspace; one of another workspace is answered as not found. */
export async function requireGroup(db: Db, institutionId: string, groupId: string): Promise<GroupRow> {
  const [row] = await db
    .select()
    .from(groups)
    .where(and(eq(groups.id, groupId), eq(groups.institutionId, institutionId)))
    .limit(1);
  if (!row) throw notFound('Group not found');
  return row;
}

/** Group names are unique per workspace, ignoring case, so a mention names one group. */
async function assertNameFree(db: Db, institutionId: string, name: string, exceptId?: string) {
  const clash = await db
    .select({ id: groups.id })
    .from(groups)
    .where(
      and(
        eq(groups.institutionId, institutionId),
        eq(sql`lower(${groups.name})`, name.toLowerCase()),
        exceptId ? ne(groups.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (clash.length > 0) throw conflict('A group with this name already exists');
}

const nameTaken = (err: unknown) => {
  if (isUniqueViolation(err)) return conflict('A group with this name already exists');
  return err;
};

function changed(ctx: Ctx, institutionId: string) {
  ctx.broadcast.toInstitution(institutionId, 'refresh', { value: 'groups' });
}

export async function listGroups(db: Db, userId: string, institutionId: string): Promise<Group[]> {
  await requireMember(db, institutionId, userId);
  const rows = await db
    .select()
    .from(groups)
    .where(eq(groups.institutionId, institutionId))
    .orderBy(asc(groups.name), asc(groups.id));
  return groupViews(db, rows);
}

export async function createGroup(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  name: string,
): Promise<Group> {
  const member = await requireGroupManager(ctx.db, institutionId, userId);
  await assertNameFree(ctx.db, institutionId, name);
  const [row] = await ctx.db
    .insert(groups)
    .values({ id: randomUUID(), institutionId, name, createdBy: member.id })
    .returning()
    .catch((err: unknown) => {
      throw nameTaken(err);
    });
  if (!row) throw new Error('group insert returned nothing');
  changed(ctx, institutionId);
  return groupView(ctx.db, row);
}

export async function renameGroup(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  groupId: string,
  name: string,
): Promise<Group> {
  await requireGroupManager(ctx.db, institutionId, userId);
  await requireGroup(ctx.db, institutionId, groupId);
  await assertNameFree(ctx.db, institutionId, name, groupId);
  const [row] = await ctx.db
    .update(groups)
    .set({ name })
    .where(eq(groups.id, groupId))
    .returning()
    .catch((err: unknown) => {
      throw nameTaken(err);
    });
  if (!row) throw notFound('Group not found');
  changed(ctx, institutionId);
  return groupView(ctx.db, row);
}

export async function deleteGroup(ctx: Ctx, userId: string, institutionId: string, groupId: string) {
  await requireGroupManager(ctx.db, institutionId, userId);
  const group = await groupView(ctx.db, await requireGroup(ctx.db, institutionId, groupId));
  await ctx.db.delete(groups).where(eq(groups.id, groupId));
  changed(ctx, institutionId);
  return group;
}

/**
 * Adds or removes members named by e-mail. Addresses of nobody in this workspace are reported back
 * rather than refused, so one typo does not undo the rest; adding twice or removing a non-member is a no-op.
 */
export async function changeGroupMembers(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  groupId: string,
  body: GroupEmailsBody,
): Promise<{ group: Group; unknownEmails: string[] }> {
  await requireGroupManager(ctx.db, institutionId, userId);
  const row = await requireGroup(ctx.db, institutionId, groupId);
  const emails = [...new Set(body.emails)];
  const found = await ctx.db
    .select({ memberId: members.id, email: users.email })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.institutionId, institutionId), inArray(users.email, emails)));
  const known = new Set(found.map((f) => f.email));
  const memberIds = found.map((f) => f.memberId);
  if (memberIds.length && body.action === 'add')
    await ctx.db
      .insert(groupMembers)
      .values(memberIds.map((memberId) => ({ groupId, memberId })))
      .onConflictDoNothing();
  if (memberIds.length && body.action === 'remove')
    await ctx.db
      .delete(groupMembers)
      .where(and(eq(groupMembers.groupId, groupId), inArray(groupMembers.memberId, memberIds)));
  if (memberIds.length) changed(ctx, institutionId);
  return { group: await groupView(ctx.db, row), unknownEmails: emails.filter((e) => !known.has(e)) };
}
