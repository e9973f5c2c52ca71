// Shared by the LTI server tests: a Lantern server that knows its own address (the launch target), a test
// platform registered by a workspace admin, and the browser's part of a launch done with fetch.
import type { LtiLaunchResponse, LtiPlatform } from '../../schemas/protocol/index.ts';
import { type LaunchSpec, type PlatformStyle, TestPlatform } from '../support/lti-platform.ts';
import { type DatabaseKind, startTestServer, type TestServer, type TestUser } from './harness.ts';

export interface LtiWorld {
  t: TestServer;
  admin: TestUser;
  workspaceId: string;
  close(): Promise<void>;
}

export async function startLtiWorld(kind: DatabaseKind): Promise<LtiWorld> {
  // The test platform listens on this machine, which only an operator's opt-in lets the tool reach.
  const t = await startTestServer(kind, { env: { LTI_ALLOW_PRIVATE: 'true' } });
  // The launch target must be this server's own address, known only once it listens.
  t.config.PUBLIC_URL = t.url;
  const admin = await t.signUp();
  const created = await admin.api.post<{ institution: { id: string } }>('/api/institutions', {
    name: 'Lantern school',
  });
  return { t, admin, workspaceId: created.body.institution.id, close: () => t.close() };
}

/** A platform started and registered by the world's admin. */
export async function registeredPlatform(world: LtiWorld, style: PlatformStyle): Promise<TestPlatform> {
  const platform = await new TestPlatform(style).start();
  const res = await world.admin.api.post<LtiPlatform>(
    `/api/institutions/${world.workspaceId}/lti-platforms`,
    platform.registration(),
  );
  if (res.status !== 201) throw new Error(`registration: ${res.status} ${JSON.stringify(res.body)}`);
  platform.tool = {
    toolUrl: world.t.url,
    loginUrl: res.body.loginUrl,
    clientId: platform.clientId,
    deploymentId: platform.deploymentId,
  };
  return platform;
}

export interface LoginStarted {
  state: string;
  nonce: string;
  authUrl: URL;
}

/** The browser's first hop: the tool's login initiation, which must send it to the platform's auth endpoint. */
export async function beginLogin(
  platform: TestPlatform,
  spec: LaunchSpec,
  method: 'GET' | 'POST' = 'GET',
): Promise<LoginStarted> {
  const { url, fields } = platform.loginInitiation(spec, method);
  const res =
    method === 'GET'
      ? await fetch(url, { redirect: 'manual' })
      : await fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  if (res.status !== 302) throw new Error(`login initiation: ${res.status} ${await res.text()}`);
  const authUrl = new URL(res.headers.get('location') ?? '');
  return {
    authUrl,
    state: authUrl.searchParams.get('state') ?? '',
    nonce: authUrl.searchParams.get('nonce') ?? '',
  };
}

/** The platform's form post to the tool's launch address. */
export function postLaunch(t: TestServer, form: Record<string, string>): Promise<Response> {
  return fetch(`${t.url}/lti/launch`, {
    method: 'POST',
    body: new URLSearchParams(form),
    redirect: 'manual',
  });
}

/** The reason a refusal page gives. */
export async function refusalReason(res: Response): Promise<string> {
  const html = await res.text();
  return (
    /<p id="reason">([^<]*)<\/p>/
      .exec(html)?.[1]
      ?.replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"') ?? html.slice(0, 300)
  );
}

/** A whole launch as a browser makes it: login, the platform's form, the tool's redirect with the ltik. */
export async function launchThrough(
  world: LtiWorld,
  platform: TestPlatform,
  spec: LaunchSpec,
  method: 'GET' | 'POST' = 'GET',
) {
  const { authUrl } = await beginLogin(platform, spec, method);
  const page = await (await fetch(authUrl)).text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
  const launched = await postLaunch(world.t, { id_token: field('id_token'), state: field('state') });
  if (launched.status !== 303) throw new Error(`launch: ${launched.status} ${await refusalReason(launched)}`);
  const location = launched.headers.get('location') ?? '';
  const ltik = new URL(location, world.t.url).searchParams.get('ltik') ?? '';
  return { location, ltik };
}

export async function exchange(world: LtiWorld, ltik: string) {
  return world.t.api().post<LtiLaunchResponse>('/api/lti/launch', { ltik });
}
