// A workspace's shareable invite link (decision 0045). Admins create (which revokes the previous one),
// read and revoke it; anyone signed in who holds a live token may see the workspace's name and join.
// A revoked, expired or made-up token is answered the same way: 404 "This invite link is no longer valid".
import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { InviteLink, InviteLinkPreview } from '../../schemas/protocol/index.ts';
import { requireWorkspaceAdmin } from '../access.ts';
import type { Db } from '../db/client.ts';
import { institutions, inviteLinks, members, users } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { joinWorkspace, type WorkspaceCtx } from './institutions.ts';

type InviteLinkRow = typeof inviteLinks.$inferSelect;
const DAY_MS = 24 * 60 * 60_000;

/** The address people open: the /join page of PUBLIC_URL (decision 0042), never a host a request named. */
export const inviteLinkUrl = (publicUrl: string, token: string) => {
  const url = new URL('/join', publicUrl);
  url.searchParams.set('invite', token);
  return url.toString();
};

const toInviteLink = (row: InviteLinkRow, publicUrl: string): InviteLink => ({
  token: row.token,
  url: inviteLinkUrl(publicUrl, row.token),
  expiresAt: row.expiresAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
});

const live = (now: Date) => and(isNull(inviteLinks.revokedAt), gt(inviteLinks.expiresAt, now));

export async function currentInviteLink(
  ctx: Pick<WorkspaceCtx, 'db' | 'config'>,
  userId: string,
  institutionId: string,
): Promise<InviteLink | null> {
  await requireWorkspaceAdmin(ctx.db, institutionId, userId);
  const [row] = await ctx.db
    .select()
    .from(inviteLinks)
    .where(and(eq(inviteLinks.institutionId, institutionId), live(new Date())))
    .orderBy(desc(inviteLinks.createdAt))
    .limit(1);
  return row ? toInviteLink(row, ctx.config.PUBLIC_URL) : null;
}

/** A new link; the one before stops working, so "regenerate" is how an admin takes back a shared link. */
export async function createInviteLink(
  ctx: Pick<WorkspaceCtx, 'db' | 'config'>,
  userId: string,
  institutionId: string,
  expiresInDays: number,
): Promise<InviteLink> {
  const admin = await requireWorkspaceAdmin(ctx.db, institutionId, userId);
  const now = new Date();
  const row = await ctx.db.transaction(async (tx) => {
    await revokeLive(tx, institutionId, now);
    const [created] = await tx
      .insert(inviteLinks)
      .values({
        id: randomUUID(),
        institutionId,
        token: randomBytes(32).toString('base64url'),
        createdBy: admin.id,
        expiresAt: new Date(now.getTime() + expiresInDays * DAY_MS),
      })
      .returning();
    if (!created) throw new Error('invite link insert returned nothing');
    return created;
  });
  return toInviteLink(row, ctx.config.PUBLIC_URL);
}

export async function revokeInviteLink(db: Db, userId: string, institutionId: string): Promise<void> {
  await requireWorkspaceAdmin(db, institutionId, userId);
  await revokeLive(db, institutionId, new Date());
}

async function revokeLive(db: Pick<Db, 'update'>, institutionId: string, now: Date) {
  await db
    .update(inviteLinks)
    .set({ revokedAt: now })
    .where(and(eq(inviteLinks.institutionId, institutionId), isNull(inviteLinks.revokedAt)));
}

async function requireLiveLink(db: Db, token: string): Promise<InviteLinkRow> {
  const [row] = await db
    .select()
    .from(inviteLinks)
    .where(and(eq(inviteLinks.token, token), live(new Date())))
    .limit(1);
  if (!row)
    throw notFound('This invite link is no longer valid. Ask an admin of the workspace for a new one.');
  return row;
}

export async function previewInviteLink(db: Db, userId: string, token: string): Promise<InviteLinkPreview> {
  const link = await requireLiveLink(db, token);
  const [institution] = await db
    .select({ id: institutions.id, name: institutions.name })
    .from(institutions)
    .where(eq(institutions.id, link.institutionId))
    .limit(1);
  if (!institution) throw notFound('This invite link is no longer valid');
  const [inviter] = link.createdBy
    ? await db
        .select({ name: users.name })
        .from(members)
        .innerJoin(users, eq(users.id, members.userId))
        .where(eq(members.id, link.createdBy))
        .limit(1)
    : [];
  const [mine] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.institutionId, institution.id), eq(members.userId, userId)))
    .limit(1);
  return {
    institution,
    inviterName: inviter?.name ?? null,
    isMember: Boolean(mine),
    expiresAt: link.expiresAt.toISOString(),
  };
}

/** Joining through the link: a member like any other (role member, default channels). Repeating it is harmless. */
export async function joinByInviteLink(ctx: WorkspaceCtx, userId: string, token: string) {
  const link = await requireLiveLink(ctx.db, token);
  return joinWorkspace(ctx, userId, link.institutionId, { invitedByEmail: false });
}
