// LTI 1.3 launches from a test platform configured like Moodle and like Canvas: a course opens its own
// workspace and the placement its channel, staff administer it and learners are members, the ltik is
// good once, the roster comes in page by page, an instructor places a chosen channel by deep linking, and
// only the launching platform may frame the launch page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  InstitutionWithMember,
  JoinedChannels,
  LtiDeepLinkResponse,
  Member,
} from '../../schemas/protocol/index.ts';
import { getPlatform } from '../../server/lti/platforms.ts';
import { syncRoster } from '../../server/lti/roster.ts';
import { type LaunchSpec, TestPlatform } from '../support/lti-platform.ts';
import { databases, makeApi } from './harness.ts';
import {
  exchange,
  type LtiWorld,
  launchThrough,
  postLaunch,
  registeredPlatform,
  startLtiWorld,
} from './lti-world.ts';
import { makeWorkspace } from './messaging-world.ts';

const MEMBERSHIP = 'http://purl.imsglobal.org/vocab/lis/v2/membership#';

const person = (sub: string, name: string, roles: string[]) => ({ sub, name, roles });

describe.each(databases)('LTI launches on %s', (kind) => {
  let world: LtiWorld;
  let moodle: TestPlatform;
  let canvas: TestPlatform;

  beforeAll(async () => {
    world = await startLtiWorld(kind);
    moodle = await registeredPlatform(world, 'moodle');
    canvas = await registeredPlatform(world, 'canvas');
  });
  afterAll(async () => {
    await moodle?.close();
    await canvas?.close();
    await world?.close();
  });

  const workspacesOf = async (token: string) =>
    (await makeApi(world.t.url, token).get<{ data: InstitutionWithMember[] }>('/api/institutions')).body.data;
  const membersOf = async (token: string, workspaceId: string) =>
    (await makeApi(world.t.url, token).get<{ data: Member[] }>(`/api/institutions/${workspaceId}/members`))
      .body.data;

  it.each(['moodle', 'canvas'] as const)(
    'a %s course opens its own workspace and channel: instructor as admin, learner as member, one ltik one session',
    async (style) => {
      const platform = style === 'moodle' ? moodle : canvas;
      // Moodle sends the full role URIs, Canvas adds short forms and institution roles.
      const teacher: LaunchSpec = {
        person: person(
          `t-${style}`,
          'Ada Teacher',
          style === 'moodle'
            ? [`${MEMBERSHIP}Instructor`]
            : ['Instructor', 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Faculty'],
        ),
        context: { id: `course-${style}`, title: `Physics 101 ${style}` },
        resourceLink: { id: `link-${style}`, title: 'Lab discussion!' },
      };
      const { location, ltik } = await launchThrough(
        world,
        platform,
        teacher,
        style === 'canvas' ? 'POST' : 'GET',
      );
      expect(location).toMatch(/^\/lti\/launch\?ltik=/);

      const first = await exchange(world, ltik);
      expect(first.status).toBe(200);
      const { accessToken, user, institutionId, channelId } = first.body as Extract<
        typeof first.body,
        { accessToken: string }
      >;
      expect(user.name).toBe('Ada Teacher');
      // The ltik is good once.
      const again = await exchange(world, ltik);
      expect(again.status).toBe(401);
      expect(again.body).toMatchObject({ message: expect.stringMatching(/expired or was already used/) });

      const [workspace] = await workspacesOf(accessToken);
      expect(workspace).toMatchObject({ id: institutionId, name: `Physics 101 ${style}` });
      const joined = (
        await makeApi(world.t.url, accessToken).get<JoinedChannels>(
          `/api/institutions/${institutionId}/channels/joined`,
        )
      ).body;
      expect(joined.channels.find((c) => c.id === channelId)?.name).toBe('lab discussion');

      const student: LaunchSpec = {
        ...teacher,
        person: person(
          `s-${style}`,
          'Sam Student',
          style === 'moodle' ? [`${MEMBERSHIP}Learner`] : ['Learner'],
        ),
      };
      const second = await exchange(world, (await launchThrough(world, platform, student)).ltik);
      const s = second.body as Extract<typeof second.body, { accessToken: string }>;
      expect([s.institutionId, s.channelId]).toEqual([institutionId, channelId]);

      const roles = Object.fromEntries(
        (await membersOf(accessToken, institutionId)).map((m) => [m.name, m.role]),
      );
      // The admin who registered the platform owns the course's workspace.
      expect(roles).toEqual({
        'Ada Teacher': 'admin',
        'Sam Student': 'member',
        [world.admin.user.name]: 'primary_owner',
      });
      // The registering workspace itself is not touched by launches.
      expect((await membersOf(world.admin.token, world.workspaceId)).map((m) => m.role)).toEqual([
        'primary_owner',
      ]);
    },
  );

  it('a launch never signs into an existing account that has the address the platform claims', async () => {
    const victim = await world.t.signUp();
    const spec: LaunchSpec = {
      person: { sub: 'mallory', name: 'Mallory', email: victim.user.email, roles: ['Learner'] },
      context: { id: 'course-takeover', title: 'Takeover' },
      resourceLink: { id: 'link-takeover', title: 'Chat' },
    };
    const res = await exchange(world, (await launchThrough(world, moodle, spec)).ltik);
    const launched = res.body as Extract<typeof res.body, { accessToken: string }>;
    expect(launched.user.id).not.toBe(victim.user.id);
    expect(launched.user.email).not.toBe(victim.user.email);
    expect(await workspacesOf(victim.token)).toEqual([]);
  });

  it('syncs the course roster through Names and Role Provisioning, page by page', async () => {
    const roster = ['Instructor', 'Learner', 'Learner', 'Learner', 'Learner'].map((role, i) =>
      person(`roster-${i}`, `Roster Person ${i}`, [`${MEMBERSHIP}${role}`]),
    );
    moodle.rosters.set('course-roster', roster);
    const before = { tokens: moodle.tokensIssued, pages: moodle.pagesServed };
    const spec: LaunchSpec = {
      person: roster[0] as LaunchSpec['person'],
      context: { id: 'course-roster', title: 'Roster course' },
      resourceLink: { id: 'link-roster', title: 'Chat' },
      nrps: true,
    };
    const res = await exchange(world, (await launchThrough(world, moodle, spec)).ltik);
    const launched = res.body as Extract<typeof res.body, { accessToken: string }>;
    await expect
      .poll(async () => (await membersOf(launched.accessToken, launched.institutionId)).length, {
        timeout: 10_000,
      })
      .toBe(6);
    const members = await membersOf(launched.accessToken, launched.institutionId);
    expect(
      members
        .filter((m) => m.role === 'member')
        .map((m) => m.name)
        .sort(),
    ).toEqual(['Roster Person 1', 'Roster Person 2', 'Roster Person 3', 'Roster Person 4']);
    // One service token bought with the tool's signed assertion; five people in pages of two.
    expect(moodle.tokensIssued - before.tokens).toBe(1);
    expect(moodle.pagesServed - before.pages).toBe(3);

    // Two people leave the course (one removed, one made inactive): the next sync takes them out.
    moodle.rosters.set('course-roster', [
      ...roster.slice(0, 3),
      { ...(roster[3] as LaunchSpec['person']), status: 'Inactive' },
    ]);
    const platform = await getPlatform(world.t.ctx.db, moodle.tool?.loginUrl.split('/').at(-1) ?? '');
    if (!platform) throw new Error('platform not found');
    const url = `${moodle.url}/nrps/course-roster`;
    expect(await syncRoster(world.t.ctx, platform, launched.institutionId, url)).toBe(3);
    const after = await membersOf(launched.accessToken, launched.institutionId);
    expect(after.map((m) => m.name).sort()).toEqual(
      [world.admin.user.name, 'Roster Person 0', 'Roster Person 1', 'Roster Person 2'].sort(),
    );
  });

  it('deep linking: an instructor places a chosen channel, whose placement then opens it', async () => {
    const teacher = person('dl-teacher', 'Dee Teacher', [`${MEMBERSHIP}Instructor`]);
    const course = { id: 'course-dl', title: 'Deep course' };
    const first = await exchange(
      world,
      (
        await launchThrough(world, canvas, {
          person: teacher,
          context: course,
          resourceLink: { id: 'dl-first', title: 'First' },
        })
      ).ltik,
    );
    const { accessToken, institutionId } = first.body as Extract<typeof first.body, { accessToken: string }>;
    const api = makeApi(world.t.url, accessToken);
    const chosen = await api.post<{ channel: { id: string } }>(
      `/api/institutions/${institutionId}/channels`,
      { name: 'projects', type: 'public' },
    );

    // A learner cannot place anything.
    const learnerPick = await launchThrough(world, canvas, {
      person: person('dl-learner', 'Lee', ['Learner']),
      context: course,
      messageType: 'LtiDeepLinkingRequest',
    }).catch((e: Error) => e.message);
    expect(learnerPick).toMatch(/403 Only course staff can place/);

    const dl = await exchange(
      world,
      (
        await launchThrough(world, canvas, {
          person: teacher,
          context: course,
          messageType: 'LtiDeepLinkingRequest',
        })
      ).ltik,
    );
    const dlBody = dl.body as Extract<typeof dl.body, { accessToken: string }>;
    expect(dlBody.channelId).toBeNull();
    expect(dlBody.deepLinkToken).toEqual(expect.any(String));
    // A channel of another workspace (a stranger's) cannot be placed in this course, and the refusal
    // does not use up the placement.
    const elsewhere = await makeWorkspace(world.t, 'Elsewhere');
    const foreign = await makeApi(world.t.url, dlBody.accessToken).post('/api/lti/deep-link', {
      deepLinkToken: dlBody.deepLinkToken,
      channelId: elsewhere.general.id,
    });
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    expect(foreign.status).toBeLessThan(500);
    const answer = await makeApi(world.t.url, dlBody.accessToken).post<LtiDeepLinkResponse>(
      '/api/lti/deep-link',
      {
        deepLinkToken: dlBody.deepLinkToken,
        channelId: chosen.body.channel.id,
      },
    );
    expect(answer.status).toBe(200);
    // Used once.
    const reuse = await makeApi(world.t.url, dlBody.accessToken).post('/api/lti/deep-link', {
      deepLinkToken: dlBody.deepLinkToken,
      channelId: chosen.body.channel.id,
    });
    expect(reuse.status).toBe(403);
    // The platform verifies the signed answer against the tool's key set.
    const placed = await fetch(answer.body.returnUrl, {
      method: 'POST',
      body: new URLSearchParams({ JWT: answer.body.jwt }),
    });
    expect(placed.status).toBe(200);
    const payload = canvas.deepLinks.at(-1) as Record<string, unknown>;
    expect(payload['https://purl.imsglobal.org/spec/lti/claim/message_type']).toBe('LtiDeepLinkingResponse');
    expect(payload['https://purl.imsglobal.org/spec/lti-dl/claim/data']).toBe('opaque-platform-data');
    const [item] = payload['https://purl.imsglobal.org/spec/lti-dl/claim/content_items'] as {
      custom: Record<string, string>;
    }[];

    // The platform now launches the new placement with the custom parameter it was given.
    const learner = await exchange(
      world,
      (
        await launchThrough(world, canvas, {
          person: person('dl-learner-2', 'Lou', ['Learner']),
          context: course,
          resourceLink: { id: 'dl-placed', title: 'Whatever' },
          custom: item?.custom,
        })
      ).ltik,
    );
    expect((learner.body as { channelId: string }).channelId).toBe(chosen.body.channel.id);
  });

  it('only the launching platform may frame its launch page; every other page stays unframeable', async () => {
    const spec: LaunchSpec = {
      person: person('frame-1', 'Fran', ['Learner']),
      context: { id: 'course-frame', title: 'Frames' },
      resourceLink: { id: 'frame', title: 'Chat' },
    };
    const { ltik } = await launchThrough(world, canvas, spec);
    const page = await fetch(`${world.t.url}/lti/launch?ltik=${ltik}`, { headers: { accept: 'text/html' } });
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`frame-ancestors https://canvas.instructure.com ${canvas.url}`);
    expect(csp).not.toContain(moodle.url);
    expect(page.headers.get('x-frame-options')).toBeNull();
    const other = await fetch(`${world.t.url}/lti/launch?ltik=made-up`, { headers: { accept: 'text/html' } });
    expect(other.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const home = await fetch(`${world.t.url}/`, { headers: { accept: 'text/html' } });
    expect(home.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('registers a platform by LTI Dynamic Registration from a one-time address, then launches from it', async () => {
    const platform = await new TestPlatform('moodle').start();
    try {
      const link = await world.admin.api.post<{ url: string }>(
        `/api/institutions/${world.workspaceId}/lti-registration-links`,
      );
      expect(link.status).toBe(201);
      // Only admins of the workspace get such an address.
      const stranger = await world.t.signUp();
      expect(
        (await stranger.api.post(`/api/institutions/${world.workspaceId}/lti-registration-links`)).status,
      ).toBe(403);

      const opened = await fetch(platform.registrationLaunch(link.body.url));
      expect(opened.status).toBe(200);
      expect(await opened.text()).toContain('/lti/registration-done.js');
      expect(opened.headers.get('content-security-policy')).toContain(`frame-ancestors ${platform.url}`);
      expect(platform.registrationRequest).toMatchObject({
        jwks_uri: `${world.t.url}/lti/keys`,
        redirect_uris: [`${world.t.url}/lti/launch`],
      });
      // The address is good once.
      const again = await fetch(platform.registrationLaunch(link.body.url));
      expect(again.status).toBe(401);

      const listed = await world.admin.api.get<{
        platforms: { clientId: string; loginUrl: string; deploymentIds: string[] }[];
      }>(`/api/institutions/${world.workspaceId}/lti-platforms`);
      expect(listed.body.platforms.find((p) => p.clientId === platform.clientId)).toMatchObject({
        loginUrl: platform.tool?.loginUrl,
        deploymentIds: [platform.deploymentId],
      });
      const launched = await exchange(
        world,
        (
          await launchThrough(world, platform, {
            person: person('dyn-1', 'Dyna', ['Learner']),
            context: { id: 'dyn', title: 'Dynamic' },
            resourceLink: { id: 'dyn', title: 'Chat' },
          })
        ).ltik,
      );
      expect(launched.status).toBe(200);
    } finally {
      await platform.close();
    }
  });

  it('a login that kept its state in the platform storage is exchanged only with that state', async () => {
    const spec: LaunchSpec = {
      person: person('stored-1', 'Sto', ['Learner']),
      context: { id: 'stored', title: 'Stored' },
      resourceLink: { id: 'stored', title: 'Chat' },
    };
    const { url } = moodle.loginInitiation(spec, 'GET', '_parent');
    const loginPage = await fetch(url, { redirect: 'manual' });
    expect(loginPage.status).toBe(200);
    expect(loginPage.headers.get('content-security-policy')).toContain(`frame-ancestors ${moodle.url}`);
    const html = await loginPage.text();
    const attr = (name: string) =>
      (new RegExp(`data-${name}="([^"]*)"`).exec(html)?.[1] ?? '').replace(/&amp;/g, '&');
    expect(attr('target')).toBe('_parent');
    expect(attr('origin')).toBe(moodle.url);
    const state = attr('value');
    // The platform's form after the page has put the state and moved on.
    const form = await (await fetch(attr('next'))).text();
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(form)?.[1] ?? '';
    expect(field('state')).toBe(state);
    const launched = await postLaunch(world.t, { id_token: field('id_token'), state });
    const target = new URL(launched.headers.get('location') ?? '', world.t.url);
    expect(target.searchParams.get('lti_storage_key')).toBe(attr('key'));
    const ltik = target.searchParams.get('ltik') ?? '';
    // A sent link (another browser has no state) and a wrong state are refused; neither spends the ltik.
    expect((await exchange(world, ltik)).body).toMatchObject({
      message: expect.stringMatching(/opened from the course page that started it/),
    });
    expect((await world.t.api().post('/api/lti/launch', { ltik, state: 'guess' })).status).toBe(401);
    expect((await world.t.api().post('/api/lti/launch', { ltik, state })).status).toBe(200);
  });
});
