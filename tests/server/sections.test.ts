// Sidebar sections: each person arranges the channels they joined; moves are idempotent so an offline
// client can replay them, and nobody sees or touches another person's layout.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { Section, sectionCreatedResponse } from '../../schemas/protocol/index.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import {
  addMember,
  connect,
  disconnectAll,
  eventually,
  makeChannel,
  makeWorkspace,
  type Workspace,
} from './messaging-world.ts';

type Layout = { data: Section[] };
type Created = z.infer<typeof sectionCreatedResponse>;

describe.each(databases)('channel sections on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => disconnectAll());

  const url = (ws: Workspace, rest = '') => `/api/institutions/${ws.id}/channels/sections${rest}`;
  const layoutOf = async (who: TestUser, ws: Workspace) => {
    const res = await who.api.get<Layout>(url(ws));
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const named = (sections: Section[], name: string) => {
    const found = sections.find((s) => s.name === name);
    if (!found) throw new Error(`no section ${name}`);
    return found;
  };
  const createSection = async (who: TestUser, ws: Workspace, body: object) => {
    const res = await who.api.post<Created>(url(ws), body);
    expect(res.status).toBe(201);
    return res.body;
  };

  it('starts everyone with one default section holding every channel they joined', async () => {
    const ws = await makeWorkspace(t);
    const room = await makeChannel(ws.owner, ws);
    const sections = await layoutOf(ws.owner, ws);
    expect(sections).toEqual([
      {
        id: expect.any(String),
        name: 'Channels',
        channels: expect.arrayContaining([ws.general.id, room.id]),
        position: 0,
        isDefault: true,
      },
    ]);
    // Reading again does not create a second default section.
    expect(await layoutOf(ws.owner, ws)).toEqual(sections);
  });

  it('creates a section with channels, which then leave the default section', async () => {
    const ws = await makeWorkspace(t);
    const room = await makeChannel(ws.owner, ws);
    const { section, data } = await createSection(ws.owner, ws, { name: ' Projects ', channels: [room.id] });
    expect(section).toMatchObject({ name: 'Projects', channels: [room.id], position: 1, isDefault: false });
    expect(named(data, 'Channels').channels).toEqual([ws.general.id]);
  });

  it('moves a channel from one section to another, and a replayed move changes nothing', async () => {
    const ws = await makeWorkspace(t);
    const room = await makeChannel(ws.owner, ws);
    const a = (await createSection(ws.owner, ws, { name: 'A', channels: [room.id] })).section;
    const b = (await createSection(ws.owner, ws, { name: 'B' })).section;
    for (let i = 0; i < 2; i++) {
      const moved = await ws.owner.api.put<Layout>(url(ws, `/${b.id}`), { channels: [room.id] });
      expect(moved.status).toBe(200);
      expect(named(moved.body.data, 'A').channels).toEqual([]);
      expect(named(moved.body.data, 'B').channels).toEqual([room.id]);
    }
    expect(a.id).not.toBe(b.id);
  });

  it('keeps the order of channels inside a section as given', async () => {
    const ws = await makeWorkspace(t);
    const one = await makeChannel(ws.owner, ws);
    const two = await makeChannel(ws.owner, ws);
    const { section } = await createSection(ws.owner, ws, { name: 'Mine', channels: [two.id, one.id] });
    expect(section.channels).toEqual([two.id, one.id]);
    const renamed = await ws.owner.api.put<Layout>(url(ws, `/${section.id}`), { name: 'Ours' });
    expect(named(renamed.body.data, 'Ours').channels).toEqual([two.id, one.id]);
  });

  it('replays a create under the client id without making a duplicate', async () => {
    const ws = await makeWorkspace(t);
    const id = randomUUID();
    expect((await ws.owner.api.post(url(ws), { id, name: 'Offline' })).status).toBe(201);
    const again = await ws.owner.api.post<Created>(url(ws), { id, name: 'Offline' });
    expect(again.status).toBe(200);
    expect(again.body.data.filter((s) => s.name === 'Offline')).toHaveLength(1);
    expect(again.body.section.id).toBe(id);
  });

  it('replaces several sections at once and reorders them', async () => {
    const ws = await makeWorkspace(t);
    const room = await makeChannel(ws.owner, ws);
    const a = (await createSection(ws.owner, ws, { name: 'A' })).section;
    const b = (await createSection(ws.owner, ws, { name: 'B' })).section;
    const replaced = await ws.owner.api.put<Layout>(url(ws), {
      sections: [
        { id: a.id, channels: [ws.general.id] },
        { id: b.id, channels: [room.id] },
      ],
    });
    expect(replaced.status).toBe(200);
    expect(named(replaced.body.data, 'A').channels).toEqual([ws.general.id]);
    expect(named(replaced.body.data, 'B').channels).toEqual([room.id]);
    expect(named(replaced.body.data, 'Channels').channels).toEqual([]);

    const reordered = await ws.owner.api.put<Layout>(url(ws, '/reorder'), { sectionIds: [b.id, a.id] });
    expect(reordered.status).toBe(200);
    expect(reordered.body.data.map((s) => s.name)).toEqual(['B', 'A', 'Channels']);
    expect(reordered.body.data.map((s) => s.position)).toEqual([0, 1, 2]);
    expect((await layoutOf(ws.owner, ws)).map((s) => s.name)).toEqual(['B', 'A', 'Channels']);
  });

  it('returns the channels of a deleted section to the default section', async () => {
    const ws = await makeWorkspace(t);
    const room = await makeChannel(ws.owner, ws);
    const { section } = await createSection(ws.owner, ws, { name: 'Temp', channels: [room.id] });
    const deleted = await ws.owner.api.delete<Layout>(url(ws, `/${section.id}`));
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toHaveLength(1);
    expect(deleted.body.data[0]!.channels).toEqual(expect.arrayContaining([ws.general.id, room.id]));
    expect((await ws.owner.api.delete(url(ws, `/${section.id}`))).status).toBe(404);
    const defaultId = deleted.body.data[0]!.id;
    const refused = await ws.owner.api.delete(url(ws, `/${defaultId}`));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/default section/);
  });

  it('keeps each person’s layout to themselves', async () => {
    const ws = await makeWorkspace(t);
    const member = await addMember(t, ws);
    const { section } = await createSection(ws.owner, ws, { name: 'Private arrangement' });
    expect((await layoutOf(member, ws)).map((s) => s.name)).toEqual(['Channels']);
    expect((await member.api.put(url(ws, `/${section.id}`), { name: 'Mine now' })).status).toBe(404);
    expect((await member.api.delete(url(ws, `/${section.id}`))).status).toBe(404);
    expect((await member.api.put(url(ws, '/reorder'), { sectionIds: [section.id] })).status).toBe(404);
    expect(
      (await member.api.put(url(ws), { sections: [{ id: section.id, channels: [ws.general.id] }] })).status,
    ).toBe(404);
  });

  it('refuses channels the person has not joined, including other workspaces’ channels', async () => {
    const ws = await makeWorkspace(t);
    const member = await addMember(t, ws);
    const secret = await makeChannel(ws.owner, ws, 'private');
    const other = await makeWorkspace(t, 'Other');
    const res = await member.api.post(url(ws), { name: 'Sneaky', channels: [secret.id] });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/joined/);
    expect((await ws.owner.api.post(url(ws), { name: 'X', channels: [other.general.id] })).status).toBe(400);
  });

  it('shows a channel left since it was placed nowhere', async () => {
    const ws = await makeWorkspace(t);
    const member = await addMember(t, ws);
    const room = await makeChannel(ws.owner, ws);
    expect((await member.api.post(`/api/institutions/${ws.id}/channels/${room.id}/members`)).status).toBe(
      200,
    );
    await createSection(member, ws, { name: 'Rooms', channels: [room.id] });
    expect((await member.api.delete(`/api/institutions/${ws.id}/channels/${room.id}/members`)).status).toBe(
      200,
    );
    expect(named(await layoutOf(member, ws), 'Rooms').channels).toEqual([]);
  });

  it('answers bad input with 400 and a message', async () => {
    const ws = await makeWorkspace(t);
    const cases: [string, string, unknown][] = [
      ['post', url(ws), { name: '' }],
      ['post', url(ws), { name: 'x'.repeat(41) }],
      ['post', url(ws), { name: 'ok', channels: 'general' }],
      ['post', url(ws), { id: 'not-a-uuid', name: 'ok' }],
      ['put', url(ws, '/reorder'), { sectionIds: [] }],
      ['put', url(ws), { sections: [{ id: 'x' }] }],
      ['put', url(ws, '/some-id'), {}],
    ];
    for (const [method, path, body] of cases) {
      const res =
        method === 'post' ? await ws.owner.api.post(path, body) : await ws.owner.api.put(path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.message).toEqual(expect.any(String));
    }
    const [only] = await layoutOf(ws.owner, ws);
    const twice = await ws.owner.api.put(url(ws, '/reorder'), { sectionIds: [only!.id, only!.id] });
    expect(twice.status).toBe(400);
  });

  it('creates one default section when several first reads race', async () => {
    const ws = await makeWorkspace(t);
    const reads = await Promise.all(Array.from({ length: 5 }, () => ws.owner.api.get<Layout>(url(ws))));
    expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await layoutOf(ws.owner, ws)).filter((s) => s.isDefault)).toHaveLength(1);
  });

  it('settles racing moves of one channel (two devices) with the channel in exactly one section', async () => {
    const ws = await makeWorkspace(t);
    const room = await makeChannel(ws.owner, ws);
    const a = (await createSection(ws.owner, ws, { name: 'A' })).section;
    const b = (await createSection(ws.owner, ws, { name: 'B' })).section;
    const moves = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        ws.owner.api.put<Layout>(url(ws, `/${i % 2 ? a.id : b.id}`), { channels: [room.id] }),
      ),
    );
    expect(moves.map((m) => m.status)).toEqual(Array(8).fill(200));
    const holding = (await layoutOf(ws.owner, ws)).filter((s) => s.channels.includes(room.id));
    expect(holding).toHaveLength(1);
  });

  it('tells the person’s other devices to reload their sections', async () => {
    const ws = await makeWorkspace(t);
    const device = await connect(t, ws.owner.token);
    const seen: string[] = [];
    device.on('refresh', (e) => seen.push(e.value));
    await createSection(ws.owner, ws, { name: 'Elsewhere' });
    await eventually(() => seen.includes('sections'));
  });
});
