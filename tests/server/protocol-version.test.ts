// The protocol window as clients meet it: a client names its protocol in the Lantern-Protocol header and in
// the socket handshake; one older than the server answers is told so distinctly (REST 426 with a sentence,
// socket connect_error with code 'protocol_outdated'), before any session check, while the current client
// and tools that name no protocol are served as before.
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MIN_PROTOCOL_VERSION,
  PROTOCOL_HEADER,
  PROTOCOL_OUTDATED_MESSAGE,
  PROTOCOL_VERSION,
} from '../../schemas/protocol/index.ts';
import { checkAnswer, databases, startTestServer, type TestServer, type TestUser } from './harness.ts';

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});

type Handshake = { connected: true } | { connected: false; message: string; data: unknown };

/** Opens a socket with this handshake `auth` and reports whether the server let it in. */
function handshake(url: string, auth: Record<string, unknown>): Promise<Handshake> {
  const socket = connect(url, { auth, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ connected: true }));
    socket.once('connect_error', (err: Error & { data?: unknown }) =>
      resolve({ connected: false, message: err.message, data: err.data }),
    );
  });
}

/** GET /api/users with this Lantern-Protocol header (none when undefined), parsed as a client reads it. */
async function me(t: TestServer, token: string | null, protocol: string | undefined) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (protocol !== undefined) headers[PROTOCOL_HEADER] = protocol;
  const res = await fetch(`${t.url}/api/users`, { headers });
  return { status: res.status, body: checkAnswer('GET', '/api/users', res.status, await res.json()) };
}

describe.each(databases)('protocol version on the wire on %s', (kind) => {
  let t: TestServer;
  let user: TestUser;
  const old = String(MIN_PROTOCOL_VERSION - 1);
  beforeAll(async () => {
    t = await startTestServer(kind);
    user = await t.signUp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a REST call from an older protocol with 426 and a sentence, even before the session check', async () => {
    const refused = await me(t, user.token, old);
    expect(refused).toEqual({
      status: 426,
      body: {
        statusCode: 426,
        error: 'Upgrade Required',
        message: PROTOCOL_OUTDATED_MESSAGE,
        requestId: expect.any(String),
      },
    });
    // An outdated client whose session is also gone must hear "reload", not be signed out.
    expect((await me(t, null, old)).status).toBe(426);
  });

  it('serves the current protocol and a call that names none (curl, scripts)', async () => {
    expect((await me(t, user.token, String(PROTOCOL_VERSION))).body).toMatchObject({ id: user.user.id });
    expect((await me(t, user.token, undefined)).body).toMatchObject({ id: user.user.id });
  });

  it('answers a header that is not a version with 400', async () => {
    const res = await me(t, user.token, 'seven');
    expect(res).toEqual({
      status: 400,
      body: {
        statusCode: 400,
        error: 'Bad Request',
        message: 'The Lantern-Protocol header must be a whole number, such as 7.',
        requestId: expect.any(String),
      },
    });
  });

  it('refuses a socket handshake from an older protocol with a distinct code, and admits current and absent', async () => {
    expect(await handshake(t.url, { token: user.token, protocol: Number(old) })).toEqual({
      connected: false,
      message: PROTOCOL_OUTDATED_MESSAGE,
      data: { code: 'protocol_outdated', minVersion: MIN_PROTOCOL_VERSION },
    });
    // Not a session refusal: a bad token with an old protocol still hears "reload".
    expect(await handshake(t.url, { token: 'nope', protocol: Number(old) })).toMatchObject({
      data: { code: 'protocol_outdated' },
    });
    expect(await handshake(t.url, { token: user.token, protocol: PROTOCOL_VERSION })).toEqual({
      connected: true,
    });
    expect(await handshake(t.url, { token: user.token })).toEqual({ connected: true });
  });
});

describe.each(databases)('a raised PROTOCOL_MIN_VERSION on %s', (kind) => {
  let t: TestServer;
  let user: TestUser;
  const minimum = PROTOCOL_VERSION + 1;
  beforeAll(async () => {
    t = await startTestServer(kind, { env: { PROTOCOL_MIN_VERSION: String(minimum) } });
    user = await t.signUp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('retires the current build on REST and on the socket, and still serves tools', async () => {
    expect((await me(t, user.token, String(PROTOCOL_VERSION))).status).toBe(426);
    expect((await me(t, user.token, String(minimum))).status).toBe(200);
    expect((await me(t, user.token, undefined)).status).toBe(200);
    expect(await handshake(t.url, { token: user.token, protocol: PROTOCOL_VERSION })).toMatchObject({
      connected: false,
      data: { code: 'protocol_outdated', minVersion: minimum },
    });
  });
});
