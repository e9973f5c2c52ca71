// What a verified launch means in Lantern: the person (by the platform's subject, never by e-mail), the
// course's workspace (one per platform context, created on its first launch, owned by the admin who
// registered the platform), their role in it (staff → admin, everyone else → member) and the channel of
// the placement (resource link).
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, TransactionRollbackError } from 'drizzle-orm';
import { addChannelMember, createChannelWithRoles } from '../channels/setup.ts';
import type { Db } from '../db/client.ts';
import {
  channels,
  institutions,
  ltiAccounts,
  ltiContexts,
  ltiResourceLinks,
  members,
  users,
} from '../db/schema.ts';
import { DEFAULT_CHANNEL_NAME } from '../services/institutions.ts';
import type { PlatformRow } from './platforms.ts';

/** The person a platform calls `subject`, created on their first launch (or roster sync). */
export async function ensureAccount(
  db: Db,
  platformId: string,
  subject: string,
  name: string,
): Promise<string> {
  const [known] = await db
    .select({ userId: ltiAccounts.userId })
    .from(ltiAccounts)
    .where(and(eq(ltiAccounts.platformId, platformId), eq(ltiAccounts.subject, subject)))
    .limit(1);
  if (known) {
    await db.update(users).set({ name }).where(eq(users.id, known.userId));
    return known.userId;
  }
  // The address a platform sends is not proof that the person owns it (any admin can register a platform
  // that claims any address), so the account gets an address of its own that no mail can reach.
  const digest = createHash('sha256').update(`${platformId}\0${subject}`).digest('hex').slice(0, 32);
  const email = `lti-${digest}@lti.invalid`;
  return db.transaction(async (tx) => {
    await tx
      .insert(users)
      .values({ id: randomUUID(), email, name })
      .onConflictDoNothing({ target: users.email });
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (!user) throw new Error('LTI user vanished after insert');
    await tx.insert(ltiAccounts).values({ platformId, subject, userId: user.id }).onConflictDoNothing();
    return user.id;
  });
}

/** The workspace of a course, created with its `general` channel on the course's first launch. */
export async function ensureCourseWorkspace(
  db: Db,
  platform: PlatformRow,
  context: { id: string; title: string },
): Promise<string> {
  const find = async () => {
    const [row] = await db
      .select({ institutionId: ltiContexts.institutionId })
      .from(ltiContexts)
      .where(and(eq(ltiContexts.platformId, platform.id), eq(ltiContexts.contextId, context.id)))
      .limit(1);
    return row?.institutionId ?? null;
  };
  const existing = await find();
  if (existing) return existing;
  const created = await db
    .transaction(async (tx) => {
      const [institution] = await tx
        .insert(institutions)
        .values({ id: randomUUID(), name: context.title.slice(0, 80), createdBy: platform.registeredBy })
        .returning();
      if (!institution) throw new Error('institution insert returned nothing');
      const claimed = await tx
        .insert(ltiContexts)
        .values({ platformId: platform.id, contextId: context.id, institutionId: institution.id })
        .onConflictDoNothing()
        .returning();
      // Another launch of the same course won the race: this transaction's workspace is dropped.
      if (claimed.length === 0) {
        tx.rollback();
        return null;
      }
      const [owner] = await tx
        .insert(members)
        .values({
          id: randomUUID(),
          institutionId: institution.id,
          userId: platform.registeredBy,
          role: 'primary_owner',
        })
        .returning();
      if (!owner) throw new Error('member insert returned nothing');
      const general = await createChannelWithRoles(tx, {
        institutionId: institution.id,
        name: DEFAULT_CHANNEL_NAME,
        type: 'public',
        isDefault: true,
        createdBy: owner.id,
      });
      await addChannelMember(
        tx,
        general.channel.id,
        owner.id,
        general.ownershipRole ? [general.ownershipRole.id] : [],
      );
      return institution.id;
    })
    .catch((err: unknown) => {
      if (err instanceof TransactionRollbackError) return null;
      throw err;
    });
  const id = created ?? (await find());
  if (!id) throw new Error('course workspace vanished');
  return id;
}

/**
 * The person's membership, with the role the platform gives them. Owners keep their role; otherwise the
 * platform is the authority, so an instructor who becomes a learner there becomes a member here.
 */
export async function ensureMember(
  db: Db,
  institutionId: string,
  userId: string,
  role: 'admin' | 'member',
): Promise<{ memberId: string; joined: boolean }> {
  const inserted = await db
    .insert(members)
    .values({ id: randomUUID(), institutionId, userId, role })
    .onConflictDoNothing({ target: [members.institutionId, members.userId] })
    .returning();
  if (inserted[0]) {
    const defaults = await db
      .select({ id: channels.id })
      .from(channels)
      .where(and(eq(channels.institutionId, institutionId), eq(channels.isDefault, true)));
    for (const channel of defaults) await addChannelMember(db, channel.id, inserted[0].id);
    return { memberId: inserted[0].id, joined: true };
  }
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.institutionId, institutionId), eq(members.userId, userId)))
    .limit(1);
  if (!row) throw new Error('member vanished after insert');
  if (row.role !== role && (row.role === 'admin' || row.role === 'member' || row.role === 'guest'))
    await db.update(members).set({ role }).where(eq(members.id, row.id));
  return { memberId: row.id, joined: false };
}

/** A channel name from a placement's title: the characters channel names allow, at most 80. */
export function channelNameOf(title: string): string {
  const cleaned = title
    .toLowerCase()
    .replace(/[^ \p{L}\p{N}_-]+/gu, ' ')
    .replace(/ +/g, ' ')
    .trim()
    .slice(0, 70)
    .trim();
  return cleaned || 'course chat';
}

/**
 * The channel of a placement: the one a deep link chose (only a channel of this course's workspace), else
 * the one created on the placement's first launch, named after it.
 */
export async function ensureLinkChannel(
  db: Db,
  platformId: string,
  institutionId: string,
  link: { id: string; title: string },
  chosenChannelId: string | null,
): Promise<string> {
  const [known] = await db
    .select({ channelId: ltiResourceLinks.channelId })
    .from(ltiResourceLinks)
    .where(and(eq(ltiResourceLinks.platformId, platformId), eq(ltiResourceLinks.resourceLinkId, link.id)))
    .limit(1);
  if (known) return known.channelId;
  let channelId: string | null = null;
  if (chosenChannelId) {
    const [chosen] = await db
      .select({ id: channels.id })
      .from(channels)
      .where(
        and(
          eq(channels.id, chosenChannelId),
          eq(channels.institutionId, institutionId),
          eq(channels.type, 'public'),
        ),
      )
      .limit(1);
    channelId = chosen?.id ?? null;
  }
  if (!channelId) {
    const base = channelNameOf(link.title);
    const taken = new Set(
      (
        await db
          .select({ name: channels.name })
          .from(channels)
          .where(eq(channels.institutionId, institutionId))
      ).map((c) => c.name),
    );
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    const created = await createChannelWithRoles(db, {
      institutionId,
      name,
      type: 'public',
      isDefault: false,
      createdBy: null,
    });
    channelId = created.channel.id;
  }
  await db
    .insert(ltiResourceLinks)
    .values({ platformId, resourceLinkId: link.id, channelId })
    .onConflictDoNothing();
  const [row] = await db
    .select({ channelId: ltiResourceLinks.channelId })
    .from(ltiResourceLinks)
    .where(and(eq(ltiResourceLinks.platformId, platformId), eq(ltiResourceLinks.resourceLinkId, link.id)))
    .limit(1);
  return row?.channelId ?? channelId;
}
