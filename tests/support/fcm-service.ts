// A local stand-in for Google's side of Firebase Cloud Messaging (HTTP v1), over plain HTTP: the OAuth 2.0
// token endpoint checks the service account's JWT-bearer assertion (RS256 signature against the account's
// public key, issuer, audience, scope, lifetime) and hands out access tokens; messages:send checks the
// bearer and the project, and answers as FCM does: 200 with a message name, 404 UNREGISTERED for a token
// it does not know (or no longer does), and whatever a test queued for a token (429/503 with Retry-After).
import { createPublicKey, createVerify, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface FcmDelivery {
  token: string;
  data: Record<string, string>;
  webpushHeaders: Record<string, string>;
  android: Record<string, unknown>;
}

export interface FcmService {
  /** The origin to set as FCM_API_URL; the token endpoint is `${origin}/token`. */
  origin: string;
  tokenUrl: string;
  projectId: string;
  /** A service account JSON key file for this project (FCM_SERVICE_ACCOUNT_FILE). */
  serviceAccountFile: string;
  /** The service account's private key as PEM (FCM_PRIVATE_KEY). */
  privateKeyPem: string;
  clientEmail: string;
  /** A registration token as a device would get it from Firebase. */
  register(): string;
  /** The device uninstalled the app: FCM answers UNREGISTERED from now on. */
  unregister(token: string): void;
  /** The next sends to this token get these answers first (status, Retry-After seconds). */
  queueAnswers(token: string, answers: Array<{ status: number; retryAfter?: string }>): void;
  /** Every push FCM accepted, in order. */
  delivered: FcmDelivery[];
  /** Every send request that reached messages:send with a valid bearer, accepted or not, by token. */
  attempts: string[];
  /** Access tokens handed out. */
  tokensIssued: number;
  /** Requests refused by the checks, with the reason. */
  refused: string[];
  waitFor(match: (d: FcmDelivery) => boolean, timeoutMs?: number): Promise<FcmDelivery>;
  close(): Promise<void>;
}

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

function fcmError(res: ServerResponse, status: number, grpc: string, errorCode?: string, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(
    JSON.stringify({
      error: {
        code: status,
        message: `${grpc} from the test FCM`,
        status: grpc,
        ...(errorCode
          ? { details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] }
          : {}),
      },
    }),
  );
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Checks a JWT-bearer assertion as Google does; returns the reason it fails, or null. */
function assertionRefusal(jwt: string, publicKey: KeyObject, email: string, audience: string): string | null {
  const [h, c, s] = jwt.split('.');
  if (!h || !c || !s) return 'not a JWT';
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string; kid?: string };
  if (header.alg !== 'RS256') return `alg ${header.alg}`;
  if (header.kid !== 'test-key-1') return `kid ${header.kid}`;
  const ok = createVerify('RSA-SHA256').update(`${h}.${c}`).verify(publicKey, Buffer.from(s, 'base64url'));
  if (!ok) return 'bad signature';
  const claims = JSON.parse(Buffer.from(c, 'base64url').toString()) as Record<string, unknown>;
  const now = Math.floor(Date.now() / 1000);
  if (claims.iss !== email) return `iss ${claims.iss}`;
  if (claims.aud !== audience) return `aud ${claims.aud}`;
  if (claims.scope !== SCOPE) return `scope ${claims.scope}`;
  if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number') return 'no iat/exp';
  if (claims.exp <= now || claims.exp - claims.iat > 3600 || claims.iat > now + 60) return 'bad lifetime';
  return null;
}

export async function startFcmService(): Promise<FcmService> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const projectId = 'lantern-test';
  const clientEmail = 'firebase-adminsdk@lantern-test.iam.gserviceaccount.com';
  const dir = mkdtempSync(path.join(tmpdir(), 'fcm-'));
  const known = new Set<string>();
  const queued = new Map<string, Array<{ status: number; retryAfter?: string }>>();
  const bearers = new Set<string>();
  const delivered: FcmDelivery[] = [];
  const attempts: string[] = [];
  const refused: string[] = [];
  const waiters = new Set<() => void>();
  let tokensIssued = 0;
  let origin = '';
  const verifyKey = createPublicKey(publicKey.export({ type: 'spki', format: 'pem' }));

  const server: Server = createServer(async (req, res) => {
    const text = await body(req);
    if (req.method === 'POST' && req.url === '/token') {
      const form = new URLSearchParams(text);
      const why =
        form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer'
          ? 'grant_type'
          : assertionRefusal(form.get('assertion') ?? '', verifyKey, clientEmail, `${origin}/token`);
      if (why) {
        refused.push(`token: ${why}`);
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid_grant', error_description: why }));
        return;
      }
      const token = `ya29.${randomUUID()}`;
      bearers.add(token);
      tokensIssued++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: token, expires_in: 3599, token_type: 'Bearer' }));
      return;
    }
    const send = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !send) return fcmError(res, 404, 'NOT_FOUND');
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !bearers.has(bearer)) {
      refused.push('send: no valid bearer');
      return fcmError(res, 401, 'UNAUTHENTICATED', 'THIRD_PARTY_AUTH_ERROR');
    }
    if (send[1] !== projectId) return fcmError(res, 403, 'PERMISSION_DENIED', 'SENDER_ID_MISMATCH');
    const message = (JSON.parse(text) as { message?: Record<string, unknown> }).message ?? {};
    const token = String(message.token ?? '');
    attempts.push(token);
    const next = queued.get(token)?.shift();
    if (next) {
      const grpc = next.status === 429 ? 'RESOURCE_EXHAUSTED' : 'UNAVAILABLE';
      const code = next.status === 429 ? 'QUOTA_EXCEEDED' : 'UNAVAILABLE';
      return fcmError(
        res,
        next.status,
        grpc,
        code,
        next.retryAfter ? { 'retry-after': next.retryAfter } : {},
      );
    }
    if (!known.has(token)) return fcmError(res, 404, 'NOT_FOUND', 'UNREGISTERED');
    const data = message.data as Record<string, unknown> | undefined;
    if (!data || Object.values(data).some((v) => typeof v !== 'string'))
      return fcmError(res, 400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT');
    delivered.push({
      token,
      data: data as Record<string, string>,
      webpushHeaders: ((message.webpush as { headers?: Record<string, string> })?.headers ?? {}) as Record<
        string,
        string
      >,
      android: (message.android ?? {}) as Record<string, unknown>,
    });
    for (const wake of [...waiters]) wake();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: `projects/${projectId}/messages/${randomUUID()}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  origin = `http://127.0.0.1:${address.port}`;
  const serviceAccountFile = path.join(dir, 'service-account.json');
  writeFileSync(
    serviceAccountFile,
    JSON.stringify({
      type: 'service_account',
      project_id: projectId,
      private_key_id: 'test-key-1',
      private_key: privateKeyPem,
      client_email: clientEmail,
      token_uri: `${origin}/token`,
    }),
  );

  return {
    origin,
    tokenUrl: `${origin}/token`,
    projectId,
    serviceAccountFile,
    privateKeyPem,
    clientEmail,
    register() {
      // The shape of a real token: an instance id, a colon, and a long APA91b… part.
      const token = `${randomUUID().replace(/-/g, '').slice(0, 22)}:APA91b${Buffer.from(randomUUID() + randomUUID()).toString('base64url')}`;
      known.add(token);
      return token;
    },
    unregister(token) {
      known.delete(token);
    },
    queueAnswers(token, answers) {
      queued.set(token, [...(queued.get(token) ?? []), ...answers]);
    },
    delivered,
    attempts,
    get tokensIssued() {
      return tokensIssued;
    },
    refused,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = delivered.find(match);
          if (!found) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no matching FCM push within ${timeoutMs} ms (refused: ${refused.join('; ')})`));
        }, timeoutMs);
        if (!check()) waiters.add(wake);
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
