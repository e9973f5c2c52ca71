// The tab's actions and the worker's sync engine against a real server: sidebar changes made while
// offline are kept, sent once when back online; join requests and presence reach the store live.
import { randomUUID } from 'node:crypto';
import type { Remote } from 'comlink';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { ChannelMemberEntry, Member, Section } from '../../schemas/protocol/index.ts';
import { visits } from '../../server/db/schema.ts';
import { refreshChannelMembers } from '../../src/data/channel-members.ts';
import { requestToJoin } from '../../src/data/channel-requests.ts';
import {
  closeChannel,
  leaveChannel,
  openChannel,
  refreshJoinedChannels,
  setChannelMuted,
} from '../../src/data/channels.ts';
import { requireClient, type StoreClient, startClient } from '../../src/data/client.ts';
import { refreshMembers } from '../../src/data/members.ts';
import {
  createSection,
  moveChannelToSection,
  refreshSections,
  renameSection,
} from '../../src/data/sections.ts';
import { visitMember } from '../../src/data/visits.ts';
import { refreshInstitutions } from '../../src/data/workspaces.ts';
import { fetchJoinedChannels } from '../../src/store/channels.ts';
import { createHttp, type Http } from '../../src/store/http.ts';
import { listRecords } from '../../src/store/records.ts';
import {
  fetchChannelMembers,
  fetchInstitutions,
  fetchMembers,
  fetchSections,
  replaceAll,
} from '../../src/store/workspaces.ts';
import type { WorkerEndpoint } from '../../worker/api.ts';
import { lazyEndpoint } from '../../worker/engine-host.ts';
import { SyncEngine } from '../../worker/sync-engine.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';
import {
  eventually,
  makeChannel,
  makeWorkspace,
  restPost,
  type Workspace,
} from '../server/messaging-world.ts';
import { addPerson, type Person } from '../server/workspace-world.ts';

const FAST_TIMINGS = {
  ackTimeoutMs: 2_000,
  resyncIntervalMs: 300,
  reconnectionDelayMs: 20,
  reconnectionDelayMaxMs: 120,
  connectTimeoutMs: 3_000,
};

let server: TestServer;
let ws: Workspace;
let me: Person;
let client: StoreClient;
let engine: SyncEngine;
/** Every request the engine made, as "METHOD path". */
const engineRequests: string[] = [];

beforeAll(async () => {
  server = await startTestServer('pglite');
  ws = await makeWorkspace(server);
  me = await addPerson(server, ws, 'member');
  let resolveEngine: (e: SyncEngine) => void = () => {};
  const enginePromise = new Promise<SyncEngine>((r) => {
    resolveEngine = r;
  });
  await startClient({
    baseUrl: server.url,
    databaseName: `workspace-sync-${randomUUID()}`,
    worker: lazyEndpoint(enginePromise, null) as unknown as Remote<WorkerEndpoint>,
  });
  client = await requireClient();
  await client.db.session.upsert({
    id: 'current',
    token: me.token,
    user: me.user,
    selectedInstitutionId: ws.id,
  });
  engine = new SyncEngine({
    db: client.db,
    baseUrl: server.url,
    timings: FAST_TIMINGS,
    getToken: async () => me.token,
    fetch: (input, init) => {
      engineRequests.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    },
    log: () => {},
  });
  resolveEngine(engine);
  await refreshInstitutions();
  await refreshJoinedChannels(ws.id);
  await refreshMembers(ws.id);
}, 60_000);

afterAll(async () => {
  engine?.close();
  await client?.db.close();
  await server?.close();
});

let engineStatus = 'offline';
const connected = () => eventually(() => engineStatus === 'connected', 10_000);

async function goOnline(): Promise<void> {
  engine.listen('connection', (s) => {
    engineStatus = s;
  });
  await engine.sessionChanged(me.token);
  await connected();
}

/**
 * Disconnects the worker and lets it apply what it had already received: a queued event's refresh (a
 * join's "refresh institutions") would otherwise fetch later and write into what a test then watches.
 */
async function goOffline(): Promise<void> {
  engine.disconnect();
  engineStatus = 'offline';
  await engine.settled();
}

async function serverSections(): Promise<Section[]> {
  const res = await me.api.get<{ data: Section[] }>(`/api/institutions/${ws.id}/channels/sections`);
  return res.body.data;
}

/** My requests whose answers wait until `open()`; `answers()` counts those the server has given. */
function gatedClient(): { store: { db: StoreClient['db']; http: Http }; answers(): number; open(): void } {
  let open: () => void = () => {};
  const gate = new Promise<void>((r) => {
    open = r;
  });
  let answers = 0;
  const http = createHttp({
    baseUrl: server.url,
    getToken: () => me.token,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      answers += 1;
      await gate;
      return res;
    },
  });
  return { store: { db: client.db, http }, answers: () => answers, open };
}

/** The same, for one request: a list asked for now that lands later. */
function slowClient(): { store: { db: StoreClient['db']; http: Http }; answered(): boolean; open(): void } {
  const gated = gatedClient();
  return { store: gated.store, answered: () => gated.answers() > 0, open: gated.open };
}

describe('channel member lists', () => {
  it('keep someone who joined when a list asked for before the join answers after the newer one', async () => {
    const channel = await makeChannel(ws.owner, ws);
    await me.api.post(`/api/institutions/${ws.id}/channels/${channel.id}/members`);
    const memberIds = async () =>
      (await listRecords(client.db, 'channelMember', { scope: channel.id })).map((m) => m.memberId).sort();
    await refreshChannelMembers(ws.id, channel.id);
    expect(await memberIds()).toHaveLength(2);

    // The tab's refresh on mount is slow: its answer (two members) waits at the gate.
    const slow = slowClient();
    const stale = fetchChannelMembers(slow.store, ws.id, channel.id);
    await eventually(slow.answered);

    // Meanwhile a third person joins and the worker's refresh (on the server's event) stores three.
    const third = await addPerson(server, ws, 'member');
    await third.api.post(`/api/institutions/${ws.id}/channels/${channel.id}/members`);
    await new Promise((r) => setTimeout(r, 5));
    await refreshChannelMembers(ws.id, channel.id);
    expect(await memberIds()).toContain(third.memberId);

    slow.open();
    await stale;
    expect(await memberIds()).toContain(third.memberId);
    expect(await memberIds()).toHaveLength(3);
  });
});

describe('joined channel lists', () => {
  const joinedHere = async () => (await client.db.syncState.find().exec()).map((s) => s.channelId);
  const membershipsHere = async () => (await client.db.channelMembers.find().exec()).map((m) => m.channelId);

  it('keep a channel joined while a list asked for before the join was on its way', async () => {
    const tides = await makeChannel(ws.owner, ws);
    const slow = slowClient();
    const stale = fetchJoinedChannels(slow.store, ws.id);
    await eventually(slow.answered);

    // Meanwhile I am added, and the refresh the server asks for stores the channel.
    await me.api.post(`/api/institutions/${ws.id}/channels/${tides.id}/members`);
    await new Promise((r) => setTimeout(r, 5));
    await refreshJoinedChannels(ws.id);
    expect(await joinedHere()).toContain(tides.id);

    slow.open();
    await stale;
    expect(await joinedHere()).toContain(tides.id);
    expect(await membershipsHere()).toContain(tides.id);
  });

  it('keep a channel muted here while a list asked for before the mute was on its way', async () => {
    const buoys = await makeChannel(ws.owner, ws);
    await me.api.post(`/api/institutions/${ws.id}/channels/${buoys.id}/members`);
    await refreshJoinedChannels(ws.id);
    const mutedHere = async () =>
      (await client.db.channelMembers.findOne({ selector: { channelId: buoys.id } }).exec())?.muted ?? false;
    expect(await mutedHere()).toBe(false);

    // The joined list's answer itself waits at the gate (not any other request of this client).
    let open: () => void = () => {};
    const gate = new Promise<void>((r) => {
      open = r;
    });
    let answered = false;
    const http = createHttp({
      baseUrl: server.url,
      getToken: () => me.token,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        if (!String(input).includes('/channels/joined')) return res;
        const body = await res.text();
        answered = true;
        await gate;
        return new Response(body, { status: res.status, headers: res.headers });
      },
    });
    const stale = fetchJoinedChannels({ db: client.db, http }, ws.id);
    await eventually(() => answered);
    await new Promise((r) => setTimeout(r, 5));
    await setChannelMuted(ws.id, buoys.id, true);
    expect(await mutedHere()).toBe(true);
    // The list the server asks for after the mute lands first (and any other refresh with it)…
    await refreshJoinedChannels(ws.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(await mutedHere()).toBe(true);

    // …then the one asked for before: it must not take the mute back.
    open();
    await stale;
    expect(await mutedHere()).toBe(true);
    // A list asked for after unmuting elsewhere brings that.
    await me.api.put(`/api/institutions/${ws.id}/channels/${buoys.id}/members`, { muted: false });
    await new Promise((r) => setTimeout(r, 5));
    await refreshJoinedChannels(ws.id);
    expect(await mutedHere()).toBe(false);
  });

  it('do not bring back a channel left while a list asked for before was on its way', async () => {
    const ferries = await makeChannel(ws.owner, ws);
    await me.api.post(`/api/institutions/${ws.id}/channels/${ferries.id}/members`);
    await refreshJoinedChannels(ws.id);
    expect(await joinedHere()).toContain(ferries.id);

    const slow = slowClient();
    const stale = fetchJoinedChannels(slow.store, ws.id);
    await eventually(slow.answered);
    await new Promise((r) => setTimeout(r, 5));
    await leaveChannel(ws.id, ferries.id);

    slow.open();
    await stale;
    expect(await joinedHere()).not.toContain(ferries.id);
    expect(await membershipsHere()).not.toContain(ferries.id);
    // A list asked for after leaving still drops it, and one asked for after rejoining brings it back.
    await refreshJoinedChannels(ws.id);
    expect(await joinedHere()).not.toContain(ferries.id);
    await me.api.post(`/api/institutions/${ws.id}/channels/${ferries.id}/members`);
    await refreshJoinedChannels(ws.id);
    expect(await joinedHere()).toContain(ferries.id);
  });
});

describe('workspace list refreshes', () => {
  it('keep a joined workspace when a refresh fetched before the join answers after it', async () => {
    const other = await makeWorkspace(server, 'Second office');
    await other.owner.api.post(`/api/institutions/${other.id}/invited-members`, { emails: [me.user.email] });
    await refreshInstitutions();
    expect((await client.db.invitations.find().exec()).map((i) => i.institutionId)).toContain(other.id);

    // A slow connection: this refresh's answers arrive only once the gate opens.
    let open: () => void = () => {};
    const gate = new Promise<void>((r) => {
      open = r;
    });
    let answered = 0;
    const slow = {
      db: client.db,
      http: createHttp({
        baseUrl: server.url,
        getToken: () => me.token,
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          answered += 1;
          await gate;
          return res;
        },
      }),
    };
    const stale = fetchInstitutions(slow);
    await eventually(() => answered === 2);

    const joined = await me.api.post(`/api/institutions/${other.id}/members`);
    expect(joined.status).toBe(200);
    const fresh = refreshInstitutions();
    // Let the later refresh finish first if it can (it should wait its turn instead).
    await Promise.race([fresh, new Promise((r) => setTimeout(r, 1_000))]);
    open();
    await Promise.all([stale, fresh]);

    const institutionIds = (await client.db.institutions.find().exec()).map((i) => i.id);
    expect(institutionIds).toContain(other.id);
    const invitedTo = (await client.db.invitations.find().exec()).map((i) => i.institutionId);
    expect(invitedTo).not.toContain(other.id);
  });

  it('take a change a refresh asked for after it brings, though an older refresh landed meanwhile', async () => {
    const lighthouse = await makeWorkspace(server, 'Lighthouse');
    const picture = 'data:image/png;base64,iVBORw0KGgo=';
    await lighthouse.owner.api.put(`/api/institutions/${lighthouse.id}`, { picture });
    await lighthouse.owner.api.post(`/api/institutions/${lighthouse.id}/invited-members`, {
      emails: [me.user.email],
    });
    await me.api.post(`/api/institutions/${lighthouse.id}/members`);
    await refreshInstitutions();
    const pictureHere = async () => (await client.db.institutions.findOne(lighthouse.id).exec())?.picture;
    expect(await pictureHere()).toBe(picture);
    // The worker's refresh on the server's event would bring the removal too: this is about the tab's lists.
    await goOffline();
    onTestFinished(goOnline);

    // The picture is replaced, and a refresh asked for then (say, as the page loaded) is slow: it brings a
    // picture the store does not hold, so it writes when it lands …
    const replaced = 'data:image/png;base64,R0lGODlhAQABAAAAACw=';
    await lighthouse.owner.api.put(`/api/institutions/${lighthouse.id}`, { picture: replaced });
    const before = gatedClient();
    const stale = fetchInstitutions(before.store);
    await eventually(() => before.answers() === 2);
    await lighthouse.owner.api.put(`/api/institutions/${lighthouse.id}`, { picture: null });
    // … while the one asked for after the removal is on its way; its answer must not yield to that write.
    const after = gatedClient();
    const fresh = fetchInstitutions(after.store);
    await eventually(() => after.answers() === 2);
    before.open();
    await stale;
    expect(await pictureHere()).toBe(replaced);
    after.open();
    await fresh;
    expect(await pictureHere()).toBeNull();
  });

  it('that remove the same entry at once both succeed', async () => {
    const third = await makeWorkspace(server, 'Third office');
    await third.owner.api.post(`/api/institutions/${third.id}/invited-members`, { emails: [me.user.email] });
    await refreshInstitutions();
    const invitations = await client.db.invitations.find().exec();
    expect(invitations.map((i) => i.institutionId)).toContain(third.id);
    const keep = invitations.filter((i) => i.institutionId !== third.id).map((i) => i.toJSON());
    // Two refreshes (say the tab's and the worker's) both see the invitation gone. Their list is fetched
    // after the invitation was stored: a later millisecond, since a write in the same one counts as newer.
    await new Promise((r) => setTimeout(r, 5));
    const fetchedAt = Date.now();
    await expect(
      Promise.all([
        replaceAll(client.db.invitations, keep, fetchedAt),
        replaceAll(client.db.invitations, keep, fetchedAt),
      ]),
    ).resolves.toBeDefined();
    expect((await client.db.invitations.find().exec()).map((i) => i.institutionId)).not.toContain(third.id);
  });
});

describe('sidebar changes made offline', () => {
  it('show at once, stay queued while offline, and reach the server exactly once when back online', async () => {
    await refreshSections(ws.id);
    await goOffline();

    const projects = await createSection(ws.id, 'Projects');
    await moveChannelToSection(ws.id, ws.general.id, projects.id);
    await renameSection(ws.id, projects.id, 'Launch');

    const local = await listRecords(client.db, 'section', { institutionId: ws.id });
    expect(local.find((s) => s.id === projects.id)).toMatchObject({
      name: 'Launch',
      channels: [ws.general.id],
    });
    expect(await client.db.outbox.count().exec()).toBe(3);
    expect((await serverSections()).some((s) => s.id === projects.id)).toBe(false);

    engineRequests.length = 0;
    await goOnline();
    const until = Date.now() + 10_000;
    while ((await client.db.outbox.count().exec()) > 0 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    await engine.settled();
    // Past a resync interval: nothing is sent a second time.
    await new Promise((r) => setTimeout(r, FAST_TIMINGS.resyncIntervalMs * 2));

    expect(await client.db.outbox.count().exec()).toBe(0);
    const onServer = (await serverSections()).find((s) => s.id === projects.id);
    expect(onServer).toMatchObject({ name: 'Launch', channels: [ws.general.id] });
    // Reads may follow (the server tells every socket of mine to refresh sections); writes happen once.
    const sectionCalls = engineRequests.filter(
      (r) => r.includes('/channels/sections') && !r.startsWith('GET'),
    );
    expect(sectionCalls).toEqual([
      `POST /api/institutions/${ws.id}/channels/sections`,
      `PUT /api/institutions/${ws.id}/channels/sections`,
      `PUT /api/institutions/${ws.id}/channels/sections/${projects.id}`,
    ]);
  });
});

describe('sidebar layouts', () => {
  it('keep a section made here while a layout asked for before it was on its way', async () => {
    await goOnline();
    await refreshSections(ws.id);
    // The worker's refresh is slow: its answer, without the new section, waits at the gate.
    const slow = slowClient();
    const stale = fetchSections(slow.store, ws.id);
    await eventually(slow.answered);
    await new Promise((r) => setTimeout(r, 5));

    // Meanwhile the person makes a section here; it is sent and accepted, so no queued change covers it.
    const harbour = await createSection(ws.id, 'Harbour');
    const until = Date.now() + 10_000;
    while ((await client.db.outbox.count().exec()) > 0 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    await engine.settled();
    expect((await serverSections()).map((s) => s.id)).toContain(harbour.id);

    slow.open();
    await stale;
    const local = await listRecords(client.db, 'section', { institutionId: ws.id });
    expect(local.map((s) => s.id)).toContain(harbour.id);
  });
});

describe('live workspace events', () => {
  it('shows my join request approved and the channel joined when an owner approves it', async () => {
    await goOnline();
    const secret = await makeChannel(ws.owner, ws, 'private');
    const request = await requestToJoin(ws.id, secret.id, 'I run the launch');
    expect(request.status).toBe('pending');

    const answer = await ws.owner.api.put(
      `/api/institutions/${ws.id}/channels/${secret.id}/requests/${request.id}`,
      { status: 'approved' },
    );
    expect(answer.status).toBe(200);

    const stored = async () =>
      (await listRecords(client.db, 'channelRequest', { scope: secret.id })).find((r) => r.id === request.id);
    const joined = async () =>
      (await client.db.channelMembers.find({ selector: { channelId: secret.id } }).exec()).length;
    const until = Date.now() + 10_000;
    while (((await stored())?.status !== 'approved' || (await joined()) === 0) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    expect((await stored())?.status).toBe('approved');
    expect(await joined()).toBe(1);
  });

  it('updates the member list of the channel I have open when someone joins it, and not of one I have closed', async () => {
    await goOnline();
    const open = await makeChannel(me, ws, 'public');
    const closed = await makeChannel(me, ws, 'public');
    await refreshJoinedChannels(ws.id);
    await refreshChannelMembers(ws.id, open.id);
    await refreshChannelMembers(ws.id, closed.id);
    await engine.setOpenChannel('tab-1', { institutionId: ws.id, channelId: open.id });
    const listed = async (channelId: string) =>
      (await listRecords(client.db, 'channelMember', { scope: channelId })).map((m) => m.memberId).sort();
    expect(await listed(open.id)).toEqual([me.memberId]);

    const newcomer = await addPerson(server, ws, 'member');
    // Joining the workspace reloads lists too: let that settle, so only the channel join is left to see.
    const arrived = Date.now() + 10_000;
    while (!(await client.db.members.findOne(newcomer.memberId).exec()) && Date.now() < arrived)
      await new Promise((r) => setTimeout(r, 50));
    await engine.settled();
    for (const channel of [open, closed])
      expect(
        (await newcomer.api.post(`/api/institutions/${ws.id}/channels/${channel.id}/members`)).status,
      ).toBe(200);

    const until = Date.now() + 10_000;
    while ((await listed(open.id)).length < 2 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    expect(await listed(open.id)).toEqual([me.memberId, newcomer.memberId].sort());
    // Nobody is looking at the other channel: its list waits until it is shown again.
    expect(await listed(closed.id)).toEqual([me.memberId]);
    await engine.setOpenChannel('tab-1', null);
  });

  it('shows a new join request to me, the channel owner, as soon as it is made', async () => {
    await goOnline();
    const mine = await makeChannel(me, ws, 'private');
    await refreshJoinedChannels(ws.id);
    const asker = await addPerson(server, ws, 'member');
    const made = await asker.api.post<{ request: { id: string } }>(
      `/api/institutions/${ws.id}/channels/${mine.id}/requests`,
      { reason: 'Can I help?' },
    );
    expect(made.status).toBe(201);

    const seen = async () =>
      (await listRecords(client.db, 'channelRequest', { scope: mine.id })).map((r) => r.id);
    const until = Date.now() + 10_000;
    while (!(await seen()).includes(made.body.request.id) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    expect(await seen()).toEqual([made.body.request.id]);
  });

  it('shows me online while connected, even when a member list fetched before my socket connected lands after', async () => {
    const myRow = () => client.db.members.findOne(me.memberId).exec();
    const listed = () => me.api.get<{ data: Member[] }>(`/api/institutions/${ws.id}/members`);
    const meIn = (res: Awaited<ReturnType<typeof listed>>) => res.body.data.find((m) => m.id === me.memberId);
    const until = async (check: () => Promise<boolean>) => {
      const deadline = Date.now() + 10_000;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error('timed out');
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await goOffline();
    await until(async () => (await myRow())?.user.isOnline === false);
    await until(async () => meIn(await listed())?.user.isOnline === false);
    const beforeConnect = await listed();

    await goOnline();
    await until(async () => (await myRow())?.user.isOnline === true);
    // The answer the server gave while I had no socket arrives only now.
    const late = { call: async () => beforeConnect.body } as unknown as Http;
    await fetchMembers({ http: late, db: client.db }, ws.id);
    expect((await myRow())?.user.isOnline).toBe(true);
  });

  it('marks a colleague online in the directory when they connect', async () => {
    await goOnline();
    const colleague = await addPerson(server, ws, 'member');
    await refreshMembers(ws.id);
    const row = () => client.db.members.findOne(colleague.memberId).exec();
    expect((await row())?.user.isOnline).toBe(false);

    const { io } = await import('socket.io-client');
    const socket = io(server.url, {
      transports: ['websocket'],
      auth: { token: colleague.token },
      forceNew: true,
    });
    try {
      const until = Date.now() + 10_000;
      while (!(await row())?.user.isOnline && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect((await row())?.user.isOnline).toBe(true);
    } finally {
      socket.disconnect();
    }
  });
});

describe('visits', () => {
  const visitsOf = (targetId: string) =>
    server.ctx.db
      .select()
      .from(visits)
      .where(and(eq(visits.visitorMemberId, me.memberId), eq(visits.targetId, targetId)));

  it('are recorded while connected and dropped while offline, never queued for later', async () => {
    const colleague = await addPerson(server, ws, 'member');
    await goOffline();
    visitMember(ws.id, colleague.memberId);
    await new Promise((r) => setTimeout(r, 100));
    await goOnline();
    await engine.settled();
    expect(await visitsOf(colleague.memberId)).toHaveLength(0);

    visitMember(ws.id, colleague.memberId);
    const until = Date.now() + 5_000;
    while ((await visitsOf(colleague.memberId)).length === 0 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    expect(await visitsOf(colleague.memberId)).toHaveLength(1);
    expect(await client.db.outbox.count().exec()).toBe(0);
  });
});

describe('refreshes that bring nothing new', () => {
  const until = async (check: () => Promise<boolean>) => {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  /** Every write to the store from now on, as "collection id": each one re-renders the screens reading it. */
  function recordWrites(): string[] {
    const writes: string[] = [];
    const sub = client.db.$.subscribe((e) => writes.push(`${e.collectionName} ${e.documentId}`));
    onTestFinished(() => sub.unsubscribe());
    return writes;
  }

  it('write nothing to the store', async () => {
    const channel = await makeChannel(ws.owner, ws);
    await me.api.post(`/api/institutions/${ws.id}/channels/${channel.id}/members`);
    await goOffline();
    onTestFinished(goOnline);
    const refreshAll = async () => {
      await refreshInstitutions();
      await refreshJoinedChannels(ws.id);
      await refreshMembers(ws.id);
      await refreshChannelMembers(ws.id, channel.id);
      await refreshSections(ws.id);
    };
    await refreshAll();
    const writes = recordWrites();
    await refreshAll();
    expect(writes).toEqual([]);
  });

  it('leave the checkpoints unwritten when a reconnect finds no new messages', async () => {
    await goOnline();
    await engine.settled();
    const writes = recordWrites();
    await goOffline();
    await goOnline();
    await engine.settled();
    expect(writes.filter((w) => w.startsWith('syncState'))).toEqual([]);
  });

  it('keep my open channel without an unread position when its member list lands', async () => {
    const channel = await makeChannel(ws.owner, ws);
    await me.api.post(`/api/institutions/${ws.id}/channels/${channel.id}/members`);
    await restPost(ws.owner, ws, channel.id);
    await openChannel(ws.id, channel.id);
    onTestFinished(closeChannel);
    await refreshJoinedChannels(ws.id);
    const mine = () => client.db.channelMembers.findOne({ selector: { channelId: channel.id } }).exec();
    expect((await mine())?.unreadThrough).toBeUndefined();

    await refreshChannelMembers(ws.id, channel.id);
    expect((await mine())?.unreadThrough).toBeUndefined();
    expect((await mine())?.unreadCount).toBe(0);
  });

  it('keep me online when a channel member list fetched before my socket connected lands after', async () => {
    const channel = await makeChannel(ws.owner, ws);
    await me.api.post(`/api/institutions/${ws.id}/channels/${channel.id}/members`);
    const myRow = () => client.db.members.findOne(me.memberId).exec();
    await goOffline();
    await until(async () => (await myRow())?.user.isOnline === false);
    const listed = () =>
      me.api.get<{ data: ChannelMemberEntry[] }>(`/api/institutions/${ws.id}/channels/${channel.id}/members`);
    const meIn = (res: Awaited<ReturnType<typeof listed>>) =>
      res.body.data.find((e) => e.member.id === me.memberId)?.member.user.isOnline;
    let beforeConnect = await listed();
    await until(async () => {
      beforeConnect = await listed();
      return meIn(beforeConnect) === false;
    });

    await goOnline();
    await until(async () => (await myRow())?.user.isOnline === true);
    // The answer the server gave while I had no socket arrives only now.
    const late = { call: async () => beforeConnect.body } as unknown as Http;
    await fetchChannelMembers({ http: late, db: client.db }, ws.id, channel.id);
    expect((await myRow())?.user.isOnline).toBe(true);
  });
});
