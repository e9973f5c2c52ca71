// Who may post is remembered between posts (server/messages/access-cache.ts, decision 0056). What was
// remembered must never outlive the right itself: every case grants a post (so the grant is remembered),
// then takes the right away by a plain SQL write on another connection, as another node or an admin's
// tool would, with none of this server's code told, and expects the very next post refused.
import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel } from '../../schemas/protocol/index.ts';
import { HttpError } from '../../server/errors.ts';
import { accessCacheFor, accessKey } from '../../server/messages/access-cache.ts';
import { postMessage } from '../../server/messages/post.ts';
import {
  channelsUrl,
  channelWith,
  emitAck,
  makeTeam,
  type Person,
  roleNamed,
  type Team,
} from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { connect, disconnectAll } from './messaging-world.ts';

describe.each(databases)('remembered access on %s', (kind) => {
  let t: TestServer;
  let team: Team;
  /** A write the server's own code knows nothing of: another connection on PostgreSQL. */
  let write: (statement: string, params: unknown[]) => Promise<void>;
  let other: pg.Client | null = null;

  beforeAll(async () => {
    t = await startTestServer(kind);
    team = await makeTeam(t);
    if (kind === 'postgres') {
      other = new pg.Client({ connectionString: t.config.DATABASE_URL });
      await other.connect();
      write = async (statement, params) => {
        await other?.query(statement, params);
      };
    } else {
      // PGlite has one connection: the server's own, used raw, below every code path of the app.
      const client = (t.ctx.db as unknown as { $client: PGlite }).$client;
      write = async (statement, params) => {
        await client.query(statement, params);
      };
    }
  });
  afterAll(async () => {
    disconnectAll();
    await other?.end();
    await t?.close();
  });

  const post = (by: Person, channel: Channel, genId: string = randomUUID()) =>
    postMessage(t.ctx, by.user.id, {
      institutionId: team.ws.id,
      channelId: channel.id,
      genId,
      content: '<p>hello</p>',
    });

  /** The refusal's sentence, or null when the post was stored. */
  const refusal = async (by: Person, channel: Channel, genId?: string): Promise<string | null> => {
    try {
      await post(by, channel, genId);
      return null;
    } catch (err) {
      if (err instanceof HttpError) return err.message;
      throw err;
    }
  };

  it('refuses the next post once the role that allowed posting is changed, and allows it again after', async () => {
    const { ws, primaryOwner, member } = team;
    const channel = await channelWith(primaryOwner, ws, 'public', [member]);
    const role = await roleNamed(primaryOwner, ws, channel, 'member');
    expect(await refusal(member, channel)).toBeNull();
    expect(await refusal(member, channel)).toBeNull();

    await write('UPDATE channel_roles SET can_post = false WHERE id = $1', [role.id]);
    expect(await refusal(member, channel)).toBe('You cannot post in this channel');
    // A refusal is never remembered: lifting it applies at once.
    await write('UPDATE channel_roles SET can_post = true WHERE id = $1', [role.id]);
    expect(await refusal(member, channel)).toBeNull();
  });

  it('refuses the next post, and the resend of an earlier one, once the member is removed', async () => {
    const { ws, primaryOwner, member } = team;
    const channel = await channelWith(primaryOwner, ws, 'public', [member]);
    const first = await post(member, channel);
    expect(first.created).toBe(true);
    // The resend of a stored post is answered with it while the sender is still a member.
    expect((await post(member, channel, first.message.genId)).created).toBe(false);

    await write('DELETE FROM channel_members WHERE channel_id = $1 AND member_id = $2', [
      channel.id,
      member.memberId,
    ]);
    expect(await refusal(member, channel)).toBe('You are not a member of this channel');
    expect(await refusal(member, channel, first.message.genId)).toBe('You are not a member of this channel');
  });

  it('refuses the next post once the channel stops allowing it by its default role', async () => {
    const { ws, primaryOwner, admin } = team;
    const channel = await channelWith(primaryOwner, ws, 'public', [admin]);
    expect(await refusal(admin, channel)).toBeNull();
    // A role of the channel that posts nothing becomes its default role.
    const silent = randomUUID();
    await write(
      `INSERT INTO channel_roles (id, channel_id, name, can_post) VALUES ($1, $2, 'listeners', false)`,
      [silent, channel.id],
    );
    await write(
      'DELETE FROM channel_member_roles WHERE channel_member_id IN (SELECT id FROM channel_members WHERE channel_id = $1 AND member_id = $2)',
      [channel.id, admin.memberId],
    );
    await write('UPDATE channels SET default_role_id = $1 WHERE id = $2', [silent, channel.id]);
    expect(await refusal(admin, channel)).toBe('You cannot post in this channel');
  });

  it('refuses the next post in a direct message once the other person blocks the sender', async () => {
    const { ws, primaryOwner, member } = team;
    const res = await primaryOwner.api.post<{ channel: Channel }>(`${channelsUrl(ws)}/direct_messages`, {
      directMessageMemberId: member.memberId,
    });
    const dm = res.body.channel;
    expect(await refusal(member, dm)).toBeNull();
    expect(await refusal(member, dm)).toBeNull();

    await write('UPDATE channel_members SET blocked = true WHERE channel_id = $1 AND member_id = $2', [
      dm.id,
      primaryOwner.memberId,
    ]);
    expect(await refusal(member, dm)).toBe('You cannot message this person');
    await write('UPDATE channel_members SET blocked = false WHERE channel_id = $1 AND member_id = $2', [
      dm.id,
      primaryOwner.memberId,
    ]);
    expect(await refusal(member, dm)).toBeNull();
  });

  it('raises the access version of every channel of a member whose workspace role changes', async () => {
    const { ws, primaryOwner, member } = team;
    const channels = [
      await channelWith(primaryOwner, ws, 'public', [member]),
      await channelWith(primaryOwner, ws, 'public', [member]),
    ];
    const versions = async () => {
      const result = (await t.ctx.db.execute(
        sql`SELECT id, access_version FROM channels WHERE id IN (${channels[0]?.id}, ${channels[1]?.id}) ORDER BY id`,
      )) as unknown as { rows: { id: string; access_version: string | number }[] };
      return result.rows.map((r) => Number(r.access_version));
    };
    const before = await versions();
    await write("UPDATE members SET role = 'admin' WHERE id = $1", [member.memberId]);
    const after = await versions();
    expect(after.map((v, i) => v - (before[i] ?? 0))).toEqual([1, 1]);
    await write("UPDATE members SET role = 'member' WHERE id = $1", [member.memberId]);
  });

  it('stores every post of a batch that holds a resend, each answered once', async () => {
    const { ws, primaryOwner, admin, member } = team;
    const channel = await channelWith(primaryOwner, ws, 'public', [admin, member]);
    const stored = await post(member, channel);
    // Handed over in one tick: one batch, whose insert meets the stored genId and runs again looking.
    const [resend, fresh, other] = await Promise.all([
      post(member, channel, stored.message.genId),
      post(admin, channel),
      post(member, channel),
    ]);
    expect(resend).toMatchObject({ created: false, message: { id: stored.message.id } });
    expect(fresh.created && other.created).toBe(true);
    expect([fresh.message.seq, other.message.seq].sort()).toEqual([2, 3]);
  });

  it('reads the grant of a person who opens a channel, before their first post, and still refuses a post the right was taken from', async () => {
    const { ws, primaryOwner, member } = team;
    const channel = await channelWith(primaryOwner, ws, 'public', [member]);
    const role = await roleNamed(primaryOwner, ws, channel, 'member');
    const cache = accessCacheFor(t.ctx.db);
    const key = accessKey({ institutionId: ws.id, channelId: channel.id, userId: member.user.id });
    expect(cache.get(key)).toBeUndefined();

    const socket = await connect(t, member.token);
    await emitAck(socket, 'visitChannel', { institutionId: ws.id, channelId: channel.id });
    await expect.poll(() => cache.get(key)?.channelMember.memberId).toBe(member.memberId);

    // Remembered from the visit, and still checked against the channel's access version.
    await write('UPDATE channel_roles SET can_post = false WHERE id = $1', [role.id]);
    expect(await refusal(member, channel)).toBe('You cannot post in this channel');
    await write('UPDATE channel_roles SET can_post = true WHERE id = $1', [role.id]);
    expect(await refusal(member, channel)).toBeNull();
  });
});
