// Every way a launch can be forged or replayed, each refused with the sentence that says why: the tokens
// are signed by the test platform's real key (or by an attacker's), the state and nonce come from a real
// login initiation, and only the one claim under test is wrong.
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchSpec, TestPlatform } from '../support/lti-platform.ts';
import { databases, startTestServer } from './harness.ts';
import {
  beginLogin,
  exchange,
  type LtiWorld,
  launchThrough,
  postLaunch,
  refusalReason,
  registeredPlatform,
  startLtiWorld,
} from './lti-world.ts';

const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
const spec: LaunchSpec = {
  person: {
    sub: 'learner-1',
    name: 'Lena',
    roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'],
  },
  context: { id: 'course-r', title: 'Refusals 101' },
  resourceLink: { id: 'link-r', title: 'Chat' },
};
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe.each(databases)('LTI refusals on %s', (kind) => {
  let world: LtiWorld;
  let moodle: TestPlatform;

  beforeAll(async () => {
    world = await startLtiWorld(kind);
    moodle = await registeredPlatform(world, 'moodle');
  });
  afterAll(async () => {
    await moodle?.close();
    await world?.close();
  });

  /** A launch whose token is made by `forge` from the correct claims and this login's nonce. */
  async function forged(forge: (claims: Record<string, unknown>) => Promise<string>) {
    const { state, nonce } = await beginLogin(moodle, spec);
    const res = await postLaunch(world.t, { id_token: await forge(moodle.claims(spec, nonce)), state });
    return { status: res.status, reason: await refusalReason(res) };
  }
  const signed = (change: Record<string, unknown>) => forged((c) => moodle.sign({ ...c, ...change }));

  it.each([
    ['a wrong audience', { aud: 'another-tool' }, /meant for another tool/],
    [
      'an audience array without azp',
      { aud: ['another-tool', 'CLIENT'] },
      /several audiences but no authorized party/,
    ],
    ['an azp naming another tool', { azp: 'another-tool' }, /authorized for another tool/],
    ['another issuer', { iss: 'https://evil.example' }, /issued by another platform/],
    [
      'an expired token',
      { iat: Math.floor(Date.now() / 1000) - 900, exp: Math.floor(Date.now() / 1000) - 300 },
      /expired/,
    ],
    [
      'a token issued in the future',
      { iat: Math.floor(Date.now() / 1000) + 3600 },
      /too long ago, or in the future/,
    ],
    [
      'an unregistered deployment',
      { [`${LTI}deployment_id`]: 'deployment-x' },
      /deployment of the tool is not registered/,
    ],
    [
      'a wrong message type',
      { [`${LTI}message_type`]: 'LtiSubmissionReviewRequest' },
      /does not handle this kind of launch/,
    ],
    ['a wrong version', { [`${LTI}version`]: '1.1' }, /not LTI version 1.3.0/],
    ['roles that are not a list', { [`${LTI}roles`]: 'Instructor' }, /malformed claim/],
    ['no roles claim', { [`${LTI}roles`]: undefined }, /malformed claim/],
    ['no resource link', { [`${LTI}resource_link`]: undefined }, /names no resource link/],
  ])('refuses %s', async (_name, change, reason) => {
    const fixed = Object.fromEntries(
      Object.entries(change).map(([k, v]) => [
        k,
        Array.isArray(v) ? v.map((a) => (a === 'CLIENT' ? moodle.clientId : a)) : v,
      ]),
    );
    const result = await signed(fixed);
    expect(result.reason).toMatch(reason);
    expect([400, 401, 403]).toContain(result.status);
  });

  it('accepts an audience array that names this tool as authorized party', async () => {
    const { state, nonce } = await beginLogin(moodle, spec);
    const token = await moodle.sign({
      ...moodle.claims(spec, nonce),
      aud: ['another-tool', moodle.clientId],
      azp: moodle.clientId,
    });
    expect((await postLaunch(world.t, { id_token: token, state })).status).toBe(303);
  });

  it('refuses a replayed launch: the state and its nonce are good once', async () => {
    const { state, nonce } = await beginLogin(moodle, spec);
    const token = await moodle.sign(moodle.claims(spec, nonce));
    expect((await postLaunch(world.t, { id_token: token, state })).status).toBe(303);
    const replay = await postLaunch(world.t, { id_token: token, state });
    expect(replay.status).toBe(401);
    expect(await refusalReason(replay)).toMatch(/expired or was already used/);
  });

  it("refuses a token carrying another login's nonce", async () => {
    const mine = await beginLogin(moodle, spec);
    const theirs = await beginLogin(moodle, spec);
    const token = await moodle.sign(moodle.claims(spec, theirs.nonce));
    const res = await postLaunch(world.t, { id_token: token, state: mine.state });
    expect(res.status).toBe(401);
    expect(await refusalReason(res)).toMatch(/does not carry the nonce of this sign-in/);
    // The other login's state was not spent by it, but this one's was: a failure burns its state too.
    const retry = await postLaunch(world.t, {
      id_token: await moodle.sign(moodle.claims(spec, mine.nonce)),
      state: mine.state,
    });
    expect(await refusalReason(retry)).toMatch(/already used/);
  });

  it("refuses alg none, HS256 keyed with the platform's public key, and a stranger's key under the platform's kid", async () => {
    const none = await forged(
      async (c) =>
        `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...c, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 300 })}.`,
    );
    expect(none.reason).toMatch(/not signed with an algorithm the tool accepts/);

    const keys = (await (await fetch(moodle.keySetUrl)).json()) as { keys: { n: string }[] };
    const publicPem = JSON.stringify(keys.keys[0]);
    const hs = await forged((c) =>
      new SignJWT(c)
        .setProtectedHeader({ alg: 'HS256', kid: moodle.currentKid })
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(publicPem)),
    );
    expect(hs.reason).toMatch(/not signed with an algorithm the tool accepts/);

    const stranger = await generateKeyPair('RS256');
    expect(await exportSPKI(stranger.publicKey)).toContain('PUBLIC KEY');
    const wrongKey = await forged((c) => moodle.sign(c, { key: stranger.privateKey }));
    expect(wrongKey.reason).toMatch(/signature does not match/);
  });

  it('refetches the key set once for an unknown kid: a rotation launches, a made-up kid does not', async () => {
    await launchThrough(world, moodle, spec); // the key set is cached now
    await moodle.rotate();
    const rotated = await launchThrough(world, moodle, spec);
    expect((await exchange(world, rotated.ltik)).status).toBe(200);
    const unknown = await forged((c) => moodle.sign(c, { kid: 'no-such-key' }));
    expect(unknown.reason).toMatch(/key the platform's key set does not contain/);
  });

  it('refuses login initiations that do not match the registered platform', async () => {
    const { url } = moodle.loginInitiation(spec);
    const tamper = async (name: string, value: string | null) => {
      const u = new URL(url);
      if (value === null) u.searchParams.delete(name);
      else u.searchParams.set(name, value);
      const res = await fetch(u, { redirect: 'manual' });
      return { status: res.status, reason: await refusalReason(res) };
    };
    expect(await tamper('iss', 'https://evil.example')).toMatchObject({
      status: 400,
      reason: expect.stringMatching(/another issuer/),
    });
    expect(await tamper('client_id', 'other')).toMatchObject({
      status: 400,
      reason: expect.stringMatching(/another client id/),
    });
    expect(await tamper('lti_deployment_id', 'x')).toMatchObject({ status: 403 });
    expect(await tamper('target_link_uri', 'https://evil.example/phish')).toMatchObject({
      reason: expect.stringMatching(/not an address of this Lantern server/),
    });
    expect(await tamper('login_hint', null)).toMatchObject({
      status: 400,
      reason: expect.stringMatching(/login_hint/),
    });
    const unknown = await fetch(
      `${world.t.url}/lti/login/00000000-0000-0000-0000-000000000000?iss=x&login_hint=y&target_link_uri=z`,
      { redirect: 'manual' },
    );
    expect(await refusalReason(unknown)).toMatch(/not registered/);
  });

  it('keeps platform registration to workspace admins, once per platform, and off private addresses by default', async () => {
    const body = moodle.registration('Copy of Moodle');
    const path = `/api/institutions/${world.workspaceId}/lti-platforms`;
    // A stranger, admin of a workspace of their own, cannot register the same platform to catch its launches.
    const stranger = await world.t.signUp();
    const own = await stranger.api.post<{ institution: { id: string } }>('/api/institutions', {
      name: 'Mine',
    });
    const copy = await stranger.api.post(`/api/institutions/${own.body.institution.id}/lti-platforms`, body);
    expect(copy.status).toBe(409);
    // Nor list or register platforms of a workspace they are not an admin of.
    expect((await stranger.api.get(path)).status).toBe(403);
    expect((await stranger.api.post(path, { ...body, clientId: 'new' })).status).toBe(403);
    expect((await stranger.api.delete(`${path}/${moodle.tool?.loginUrl.split('/').at(-1)}`)).status).toBe(
      403,
    );
    // Bad input is a sentence, not a 500.
    const bad = await world.admin.api.post(path, { ...body, clientId: 'x', keySetUrl: 'file:///etc/passwd' });
    expect(bad.status).toBe(400);

    const strict = await startTestServer(kind);
    try {
      const admin = await strict.signUp();
      const ws = await admin.api.post<{ institution: { id: string } }>('/api/institutions', {
        name: 'Strict',
      });
      const res = await admin.api.post(`/api/institutions/${ws.body.institution.id}/lti-platforms`, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: expect.stringMatching(/127\.0\.0\.1/) });
    } finally {
      await strict.close();
    }
  });
});
