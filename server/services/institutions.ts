// Workspaces: creation (with the default `general` channel), listing, renaming, invitations and joining.
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, gt, inArray, notExists } from 'drizzle-orm';
import type {
  Institution,
  InstitutionWithMember,
  Invitation,
  InvitationWithInstitution,
  Member,
  WorkspaceInvitation,
} from '../../schemas/protocol/index.ts';
import { type MemberRow, requireMember, requireWorkspaceAdmin } from '../access.ts';
import { requireWorkspaceCreationAllowed } from '../auth/signup-policy.ts';
import { addChannelMember, createChannelWithRoles } from '../channels/setup.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { channels, institutions, invitationSends, invitations, members, users } from '../db/schema.ts';
import { forbidden, HttpError, notFound, tooManyRequests } from '../errors.ts';
import { invitationMail } from '../mail/templates.ts';
import type { RealtimeControls } from '../realtime-controls.ts';
import { getUser, type UserRow } from './users.ts';
import { toMember } from './workspace-members.ts';

export const DEFAULT_CHANNEL_NAME = 'general';

export type InstitutionRow = typeof institutions.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;

/** Workspaces and invitations in the wire shape of schemas/protocol/. */
export const toInstitution = (row: InstitutionRow): Institution => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  linkPreviews: row.linkPreviews,
  picture: row.picture,
});

export const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  institutionId: row.institutionId,
  email: row.email,
  createdAt: row.createdAt.toISOString(),
});

/** Admins also see who invited (the workspace settings screen). */
export const toWorkspaceInvitation = (row: InvitationRow): WorkspaceInvitation => ({
  ...toInvitation(row),
  invitedBy: row.invitedBy,
});

export type WorkspaceCtx = Pick<AppContext, 'db' | 'broadcast' | 'config' | 'mail' | 'log'> & {
  realtime: Pick<RealtimeControls, 'joinInstitution' | 'joinChannel' | 'onlineUserIds'>;
};

async function memberView(db: Db, row: MemberRow, user?: UserRow): Promise<Member> {
  return toMember(row, user ?? (await getUser(db, row.userId)));
}

async function getInstitution(db: Db, id: string): Promise<InstitutionRow> {
  const [row] = await db.select().from(institutions).where(eq(institutions.id, id)).limit(1);
  if (!row) throw notFound('Workspace not found');
  return row;
}

/** A new workspace: the caller is its primary owner and owner of its default `general` channel. */
export async function createInstitution(ctx: WorkspaceCtx, userId: string, name: string) {
  const user = await getUser(ctx.db, userId);
  requireWorkspaceCreationAllowed(ctx.config, user.email);
  const { institution, member, generalId } = await ctx.db.transaction(async (tx) => {
    const [institution] = await tx
      .insert(institutions)
      .values({ id: randomUUID(), name, createdBy: userId })
      .returning();
    if (!institution) throw new Error('institution insert returned nothing');
    const [member] = await tx
      .insert(members)
      .values({ id: randomUUID(), institutionId: institution.id, userId, role: 'primary_owner' })
      .returning();
    if (!member) throw new Error('member insert returned nothing');
    const general = await createChannelWithRoles(tx, {
      institutionId: institution.id,
      name: DEFAULT_CHANNEL_NAME,
      type: 'public',
      isDefault: true,
      createdBy: member.id,
    });
    await addChannelMember(
      tx,
      general.channel.id,
      member.id,
      general.ownershipRole ? [general.ownershipRole.id] : [],
    );
    return { institution, member, generalId: general.channel.id };
  });
  ctx.realtime.joinInstitution(userId, institution.id);
  // The creator is in #general: their open sockets hear it now, not only once the app joins its rooms, so a
  // teammate's first message cannot pass by a tab that has just created the workspace.
  ctx.realtime.joinChannel(userId, generalId);
  ctx.broadcast.toUser(userId, 'refresh', { value: 'institutions' });
  return { institution: toInstitution(institution), member: toMember(member, user) };
}

export async function listInstitutions(db: Db, userId: string): Promise<InstitutionWithMember[]> {
  const user = await getUser(db, userId);
  const rows = await db
    .select({ institution: institutions, member: members })
    .from(members)
    .innerJoin(institutions, eq(institutions.id, members.institutionId))
    .where(eq(members.userId, userId))
    .orderBy(asc(members.createdAt));
  return rows.map((r) => ({ ...toInstitution(r.institution), member: toMember(r.member, user) }));
}

/** An admin renames the workspace, sets its picture (null removes it), or both (decision 0054). */
export async function updateInstitution(
  ctx: WorkspaceCtx,
  userId: string,
  institutionId: string,
  patch: { name?: string; picture?: string | null },
): Promise<InstitutionWithMember> {
  const member = await requireWorkspaceAdmin(ctx.db, institutionId, userId);
  const set: { name?: string; picture?: string | null } = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.picture !== undefined) set.picture = patch.picture;
  const [row] = await ctx.db
    .update(institutions)
    .set(set)
    .where(eq(institutions.id, institutionId))
    .returning();
  if (!row) throw notFound('Workspace not found');
  ctx.broadcast.toInstitution(institutionId, 'refresh', { value: 'institutions' });
  return { ...toInstitution(row), member: await memberView(ctx.db, member) };
}

export async function listMembers(
  ctx: Pick<WorkspaceCtx, 'db' | 'realtime'>,
  userId: string,
  institutionId: string,
): Promise<Member[]> {
  await requireMember(ctx.db, institutionId, userId);
  const online = await ctx.realtime.onlineUserIds(institutionId);
  const rows = await ctx.db
    .select({ member: members, user: users })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(eq(members.institutionId, institutionId))
    .orderBy(asc(members.createdAt));
  return rows.map((r) => toMember(r.member, r.user, online.has(r.user.id)));
}

// ───────────── invitations ─────────────

export async function listInvitations(
  db: Db,
  userId: string,
  institutionId: string,
): Promise<WorkspaceInvitation[]> {
  await requireWorkspaceAdmin(db, institutionId, userId);
  const rows = await db
    .select()
    .from(invitations)
    .where(eq(invitations.institutionId, institutionId))
    .orderBy(asc(invitations.createdAt));
  return rows.map(toWorkspaceInvitation);
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * Refuses (429) invitations that would take the inviter or the workspace past its daily number of
 * invitation e-mails (INVITES_PER_USER_PER_DAY, INVITES_PER_WORKSPACE_PER_DAY, over the last 24 hours).
 * Only addresses not yet invited count: they are the ones that would be mailed. A stranger with a
 * workspace of their own cannot turn Lantern into a mail cannon.
 */
async function requireInvitationBudget(
  ctx: WorkspaceCtx,
  userId: string,
  institutionId: string,
  emails: string[],
) {
  if (emails.length === 0) return;
  const pending = await ctx.db
    .select({ email: invitations.email })
    .from(invitations)
    .where(and(eq(invitations.institutionId, institutionId), inArray(invitations.email, emails)));
  await requireMailBudget(ctx, userId, institutionId, emails.length - pending.length);
}

/** Refuses (429) `mails` more invitation e-mails past the inviter's or the workspace's daily number. */
async function requireMailBudget(ctx: WorkspaceCtx, userId: string, institutionId: string, mails: number) {
  if (mails === 0) return;
  const since = gt(invitationSends.createdAt, new Date(Date.now() - DAY_MS));
  const [byUser] = await ctx.db
    .select({ n: count() })
    .from(invitationSends)
    .where(and(eq(invitationSends.inviterUserId, userId), since));
  if ((byUser?.n ?? 0) + mails > ctx.config.INVITES_PER_USER_PER_DAY) {
    throw tooManyRequests(
      `You can send ${ctx.config.INVITES_PER_USER_PER_DAY} invitations a day and have reached that. Try again tomorrow.`,
    );
  }
  const [byWorkspace] = await ctx.db
    .select({ n: count() })
    .from(invitationSends)
    .where(and(eq(invitationSends.institutionId, institutionId), since));
  if ((byWorkspace?.n ?? 0) + mails > ctx.config.INVITES_PER_WORKSPACE_PER_DAY) {
    throw tooManyRequests(
      `This workspace can send ${ctx.config.INVITES_PER_WORKSPACE_PER_DAY} invitations a day and has reached that. Try again tomorrow.`,
    );
  }
}

/**
 * Invites addresses: already-members are skipped, already-invited ones keep their invitation (and are
 * not mailed again). Returns the pending invitations for the given addresses and the skipped ones.
 */
export async function inviteMembers(
  ctx: WorkspaceCtx,
  userId: string,
  institutionId: string,
  emails: string[],
) {
  const admin = await requireWorkspaceAdmin(ctx.db, institutionId, userId);
  const unique = [...new Set(emails)];
  const existing = await ctx.db
    .select({ email: users.email })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.institutionId, institutionId), inArray(users.email, unique)));
  const skipped = new Set(existing.map((e) => e.email));
  const toInvite = unique.filter((e) => !skipped.has(e));
  await requireInvitationBudget(ctx, userId, institutionId, toInvite);
  const created = toInvite.length
    ? await ctx.db
        .insert(invitations)
        .values(toInvite.map((email) => ({ id: randomUUID(), institutionId, email, invitedBy: admin.id })))
        .onConflictDoNothing({ target: [invitations.institutionId, invitations.email] })
        .returning()
    : [];
  const all = toInvite.length
    ? await ctx.db
        .select()
        .from(invitations)
        .where(and(eq(invitations.institutionId, institutionId), inArray(invitations.email, toInvite)))
    : [];

  if (created.length > 0) {
    await ctx.db
      .insert(invitationSends)
      .values(created.map(() => ({ id: randomUUID(), institutionId, inviterUserId: userId })));
  }
  const institution = await getInstitution(ctx.db, institutionId);
  const inviter = await getUser(ctx.db, userId);
  const joinUrl = new URL('/join', ctx.config.PUBLIC_URL).toString();
  for (const invitation of created) {
    try {
      await ctx.mail.send({
        to: invitation.email,
        ...invitationMail({ workspace: institution.name, inviter: inviter.name, joinUrl }),
      });
    } catch (err) {
      // The invitation stands: the person sees it under "invited" when they sign in.
      ctx.log.error({ err, to: invitation.email }, 'invitation mail failed');
    }
  }
  return { data: all.map(toWorkspaceInvitation), skipped: [...skipped] };
}

/**
 * Sends an open invitation's e-mail again (the settings screen's "Resend"): admins only, and it counts
 * against the same daily budgets as a new invitation, so resending cannot turn into a mail cannon either.
 * Unlike a new invitation, a mail that fails is the caller's failure: resending is all the request does.
 */
export async function resendInvitation(
  ctx: WorkspaceCtx,
  userId: string,
  institutionId: string,
  invitationId: string,
): Promise<WorkspaceInvitation> {
  await requireWorkspaceAdmin(ctx.db, institutionId, userId);
  const [invitation] = await ctx.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, invitationId), eq(invitations.institutionId, institutionId)))
    .limit(1);
  if (!invitation) throw notFound('This invitation has been accepted or revoked');
  await requireMailBudget(ctx, userId, institutionId, 1);
  await ctx.db.insert(invitationSends).values({ id: randomUUID(), institutionId, inviterUserId: userId });
  const institution = await getInstitution(ctx.db, institutionId);
  const inviter = await getUser(ctx.db, userId);
  const joinUrl = new URL('/join', ctx.config.PUBLIC_URL).toString();
  try {
    await ctx.mail.send({
      to: invitation.email,
      ...invitationMail({ workspace: institution.name, inviter: inviter.name, joinUrl }),
    });
  } catch (err) {
    ctx.log.error({ err, to: invitation.email }, 'invitation mail failed');
    throw new HttpError(502, 'The invitation e-mail could not be sent. Try again in a few minutes.');
  }
  return toWorkspaceInvitation(invitation);
}

export async function revokeInvitations(db: Db, userId: string, institutionId: string, emails: string[]) {
  await requireWorkspaceAdmin(db, institutionId, userId);
  const removed = await db
    .delete(invitations)
    .where(and(eq(invitations.institutionId, institutionId), inArray(invitations.email, emails)))
    .returning();
  return { data: removed.map(toWorkspaceInvitation) };
}

/** The caller's pending invitations, to workspaces they are not in yet. */
export async function myInvitations(db: Db, userId: string): Promise<InvitationWithInstitution[]> {
  const user = await getUser(db, userId);
  const rows = await db
    .select({ invitation: invitations, institution: institutions })
    .from(invitations)
    .innerJoin(institutions, eq(institutions.id, invitations.institutionId))
    .where(
      and(
        eq(invitations.email, user.email),
        notExists(
          db
            .select({ id: members.id })
            .from(members)
            .where(and(eq(members.institutionId, invitations.institutionId), eq(members.userId, userId))),
        ),
      ),
    )
    .orderBy(asc(invitations.createdAt));
  return rows.map((r) => ({ ...toInvitation(r.invitation), institution: toInstitution(r.institution) }));
}

/** Declining: the invitation is removed. Someone else's invitation id is answered as not found. */
export async function declineInvitation(db: Db, userId: string, invitationId: string): Promise<void> {
  const user = await getUser(db, userId);
  const removed = await db
    .delete(invitations)
    .where(and(eq(invitations.id, invitationId), eq(invitations.email, user.email)))
    .returning({ id: invitations.id });
  if (removed.length === 0) throw notFound('Invitation not found');
}

/**
 * Accepting an invitation: the caller becomes a member and joins every default channel. Repeating it
 * once joined answers with the existing membership, so a retried request does no harm.
 */
export async function acceptInvitation(ctx: WorkspaceCtx, userId: string, institutionId: string) {
  return joinWorkspace(ctx, userId, institutionId, { invitedByEmail: true });
}

/**
 * Makes the caller a member who joins every default channel. With invitedByEmail, only an open
 * invitation to the caller's address admits them; otherwise the caller has already been admitted
 * (an invite link, checked by server/services/invite-links.ts) and any invitation is used up too.
 */
export async function joinWorkspace(
  ctx: WorkspaceCtx,
  userId: string,
  institutionId: string,
  opts: { invitedByEmail: boolean },
) {
  const user = await getUser(ctx.db, userId);
  const result = await ctx.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(members)
      .where(and(eq(members.institutionId, institutionId), eq(members.userId, userId)))
      .limit(1);
    if (existing) return { member: existing, joined: false };
    const removed = await tx
      .delete(invitations)
      .where(and(eq(invitations.institutionId, institutionId), eq(invitations.email, user.email)))
      .returning({ id: invitations.id });
    if (opts.invitedByEmail && removed.length === 0) {
      throw forbidden('You have not been invited to this workspace');
    }
    const [member] = await tx
      .insert(members)
      .values({ id: randomUUID(), institutionId, userId, role: 'member' })
      .returning();
    if (!member) throw new Error('member insert returned nothing');
    const defaults = await tx
      .select({ id: channels.id })
      .from(channels)
      .where(and(eq(channels.institutionId, institutionId), eq(channels.isDefault, true)));
    for (const channel of defaults) await addChannelMember(tx, channel.id, member.id);
    return { member, joined: true, defaultIds: defaults.map((c) => c.id) };
  });
  const institution = await getInstitution(ctx.db, institutionId);
  if (result.joined) {
    ctx.realtime.joinInstitution(userId, institutionId);
    // Into the default channels' rooms at once, as on being added to any channel (membership.ts).
    for (const channelId of result.defaultIds ?? []) ctx.realtime.joinChannel(userId, channelId);
    ctx.broadcast.toInstitution(institutionId, 'refresh', { value: 'members' });
    ctx.broadcast.toUser(userId, 'refresh', { value: 'institutions' });
    ctx.broadcast.toUser(userId, 'refresh', { value: 'joinedChannels' });
  }
  return { institution: toInstitution(institution), member: toMember(result.member, user) };
}
