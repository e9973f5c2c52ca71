// Deleting one's own account (spec §2 /account-deletion, decision 0029). In one transaction: every session
// ends, the person leaves every workspace (member rows, channel memberships, groups, sections, stars go by
// cascade), their user row is deleted, and their messages either stay, shown under "Deleted user" (their
// member ids are recorded in deleted_members), or become tombstones like a deleted message. A workspace
// with other people in it must be handed over by its primary owner first; one with nobody else in it is
// deleted with the account. Afterwards the sessions' sockets close on every node and a mail confirms it.
import { and, asc, eq, exists, inArray, isNull, ne, sql } from 'drizzle-orm';
import type {
  AccountDeletedResponse,
  AccountDeletionPreview,
  DeletedMessagesChoice,
  Message,
} from '../../schemas/protocol/index.ts';
import { liveSessionCondition } from '../auth/session-lifetime.ts';
import { announceHeirs, handOnOwnership } from '../channels/ownership-succession.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import {
  channelMembers,
  channels,
  deletedMembers,
  fileAttachments,
  files,
  institutions,
  invitations,
  members,
  messages,
  sessions,
  signinCodes,
  users,
} from '../db/schema.ts';
import { conflict, notFound } from '../errors.ts';
import { accountDeletedMail } from '../mail/templates.ts';
import { toWireMessage } from '../messages/wire.ts';

type Ctx = Pick<AppContext, 'db' | 'config' | 'broadcast' | 'realtime' | 'mail' | 'log'>;

interface WorkspaceRef {
  id: string;
  name: string;
}

interface Standing {
  blocking: WorkspaceRef[];
  sole: WorkspaceRef[];
  /** Every workspace membership of the person: member id and workspace. */
  memberships: { memberId: string; institutionId: string; primary: boolean }[];
}

/**
 * The person's workspaces as deletion sees them: where they are primary owner with other people in it
 * (blocking), where they are primary owner alone (deleted with them), and all their memberships.
 */
async function standing(db: Db, userId: string): Promise<Standing> {
  const rows = await db
    .select({ memberId: members.id, role: members.role, id: institutions.id, name: institutions.name })
    .from(members)
    .innerJoin(institutions, eq(institutions.id, members.institutionId))
    .where(and(eq(members.userId, userId), eq(members.kind, 'user')))
    .orderBy(asc(institutions.name));
  const blocking: WorkspaceRef[] = [];
  const sole: WorkspaceRef[] = [];
  for (const row of rows.filter((r) => r.role === 'primary_owner')) {
    // Agents are members too, but they are the workspace's settings, not people to hand it to.
    const [other] = await db
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.institutionId, row.id), ne(members.userId, userId), eq(members.kind, 'user')))
      .limit(1);
    (other ? blocking : sole).push({ id: row.id, name: row.name });
  }
  return {
    blocking,
    sole,
    memberships: rows.map((r) => ({
      memberId: r.memberId,
      institutionId: r.id,
      primary: r.role === 'primary_owner',
    })),
  };
}

/** The sentence a primary owner meets: which workspaces to hand over, and where. */
export function handOverFirst(blocking: WorkspaceRef[]): string {
  const names = blocking.map((w) => `“${w.name}”`).join(', ');
  return blocking.length === 1
    ? `You are the primary owner of ${names}. Hand it over to another admin in its Settings first, then delete your account.`
    : `You are the primary owner of ${names}. Hand each over to another admin in its Settings first, then delete your account.`;
}

export async function accountDeletionPreview(ctx: Ctx, userId: string): Promise<AccountDeletionPreview> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw notFound('User not found');
  const { blocking, sole } = await standing(ctx.db, userId);
  const live = await ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), liveSessionCondition(ctx.config)));
  return { email: user.email, blockingWorkspaces: blocking, soleWorkspaces: sole, sessions: live.length };
}

/**
 * Tombstones every live message of these member ids in one channel, each with its own next seq of the
 * channel (so clients catching up learn of every one), and returns them in their wire shape.
 */
async function tombstoneMessages(tx: Db, channelId: string, memberIds: string[]): Promise<Message[]> {
  const live = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.channelId, channelId),
        inArray(messages.memberId, memberIds),
        isNull(messages.deletedAt),
      ),
    )
    .orderBy(asc(messages.createdSeq));
  if (live.length === 0) return [];
  // One UPDATE moves the channel's sequence past all of them and row-locks the channel (decision 0002).
  const [channel] = await tx
    .update(channels)
    .set({ lastSeq: sql`${channels.lastSeq} + ${live.length}` })
    .where(eq(channels.id, channelId))
    .returning({ lastSeq: channels.lastSeq });
  if (!channel) return [];
  const base = channel.lastSeq - live.length;
  const now = new Date();
  const out: Message[] = [];
  for (const [i, { id }] of live.entries()) {
    const [row] = await tx
      .update(messages)
      .set({ content: '', attachments: [], mentions: [], deletedAt: now, seq: base + i + 1 })
      .where(eq(messages.id, id))
      .returning();
    if (row) out.push(toWireMessage(row));
  }
  return out;
}

/**
 * Deletes the account of `userId`. Refused (409, naming them) while they are the primary owner of a
 * workspace with other people in it; nothing changes then.
 */
export async function deleteAccount(
  ctx: Ctx,
  userId: string,
  choice: DeletedMessagesChoice,
): Promise<AccountDeletedResponse> {
  const result = await ctx.db.transaction(async (tx) => {
    // Locked: a second deletion, or a sign-in creating a session, waits for this one.
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
    if (!user) throw notFound('This account no longer exists');
    const { blocking, sole, memberships } = await standing(tx, userId);
    if (blocking.length > 0) throw conflict(handOverFirst(blocking));

    const soleIds = new Set(sole.map((w) => w.id));
    const kept = memberships.filter((m) => !soleIds.has(m.institutionId));
    const memberIds = kept.map((m) => m.memberId);

    const liveSessions = await tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    const joined =
      memberIds.length === 0
        ? []
        : await tx
            .select({ channelId: channelMembers.channelId, memberId: channelMembers.memberId })
            .from(channelMembers)
            .where(inArray(channelMembers.memberId, memberIds));

    const tombstones: Message[] = [];
    if (memberIds.length > 0) {
      if (choice === 'remove') {
        const authored = await tx
          .selectDistinct({ channelId: messages.channelId })
          .from(messages)
          .where(and(inArray(messages.memberId, memberIds), isNull(messages.deletedAt)));
        for (const { channelId } of authored)
          tombstones.push(...(await tombstoneMessages(tx, channelId, memberIds)));
      }
      // Their files that no remaining message carries (drafts, removed messages) go; the upload sweep then
      // removes the bytes, as for any file row that is gone. Files in kept messages stay with them.
      const carried = tx
        .select({ one: sql`1` })
        .from(fileAttachments)
        .innerJoin(messages, eq(messages.id, fileAttachments.messageId))
        .where(and(eq(fileAttachments.fileId, files.id), isNull(messages.deletedAt)));
      await tx.delete(files).where(and(inArray(files.memberId, memberIds), sql`not ${exists(carried)}`));
      await tx
        .insert(deletedMembers)
        .values(kept.map((m) => ({ memberId: m.memberId, institutionId: m.institutionId })))
        .onConflictDoNothing();
    }
    if (soleIds.size > 0) {
      // An agent's identity is a user row of its own (server/agents): it goes with its workspace.
      const agentUsers = await tx
        .select({ id: members.userId })
        .from(members)
        .where(and(inArray(members.institutionId, [...soleIds]), eq(members.kind, 'agent')));
      await tx.delete(institutions).where(inArray(institutions.id, [...soleIds]));
      if (agentUsers.length > 0)
        await tx.delete(users).where(
          inArray(
            users.id,
            agentUsers.map((a) => a.id),
          ),
        );
    }
    // The address is personal data: codes and pending invitations to it go with the account.
    await tx.delete(signinCodes).where(eq(signinCodes.email, user.email));
    await tx.delete(invitations).where(eq(invitations.email, user.email));
    // Channels they alone owned pass to their longest-standing person before the memberships go.
    const heirs = await handOnOwnership(tx, memberIds);
    // Members, sessions and everything hanging off members go by cascade.
    await tx.delete(users).where(eq(users.id, userId));
    return { user, kept, joined, sole, tombstones, heirs, sessionIds: liveSessions.map((s) => s.id) };
  });

  // After commit: sockets close everywhere, the others' screens refresh, and the person is told.
  for (const sessionId of result.sessionIds) ctx.realtime.disconnectSession(sessionId);
  for (const m of result.kept) {
    ctx.realtime.leaveInstitution(
      userId,
      m.institutionId,
      result.joined.filter((j) => j.memberId === m.memberId).map((j) => j.channelId),
    );
    ctx.broadcast.toInstitution(m.institutionId, 'refresh', { value: 'members' });
    ctx.broadcast.toInstitution(m.institutionId, 'refresh', { value: 'groups' });
  }
  for (const message of result.tombstones)
    ctx.broadcast.toChannel(message.channelId, 'newDeleteMessage', message);
  announceHeirs(ctx, result.heirs);
  try {
    await ctx.mail.send({
      to: result.user.email,
      ...accountDeletedMail({ messagesRemoved: choice === 'remove' }),
    });
  } catch (err) {
    // The deletion is done; a lost confirmation must not make it look failed.
    ctx.log.error({ err }, 'account deletion mail failed');
  }
  return { deleted: true, deletedWorkspaces: result.sole };
}

/** Member ids of people who deleted their account, for a member of the workspace to show "Deleted user". */
export async function deletedMemberIds(db: Db, institutionId: string): Promise<string[]> {
  const rows = await db
    .select({ memberId: deletedMembers.memberId })
    .from(deletedMembers)
    .where(eq(deletedMembers.institutionId, institutionId));
  return rows.map((r) => r.memberId);
}
