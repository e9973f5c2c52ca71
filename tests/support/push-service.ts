// A local push service speaking RFC 8030 over HTTPS (a self-signed certificate made for the test run), in
// place of FCM, Mozilla's autopush or Apple's: it checks each request's VAPID JWT (RFC 8292) with jose
// against the key in the request, decrypts the body (RFC 8291, aes128gcm) with http_ece using the
// subscription's private key, and records what arrived. A subscription can be made to answer 404 or 410.
import { execFileSync } from 'node:child_process';
import { createECDH, type ECDH, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ece from 'http_ece';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';

export interface ReceivedPush {
  subscriptionId: string;
  /** performance.now() when the request's body had arrived (the benchmark times pushes with it). */
  at: number;
  payload: unknown;
  /** The body's size as sent (encrypted). */
  bytes: number;
  ttl: string | undefined;
  urgency: string | undefined;
  topic: string | undefined;
  /** The VAPID JWT's claims, checked. */
  claims: { aud: string; sub: string; exp: number };
  /** The VAPID public key the request named (k=). */
  vapidKey: string;
}

export interface BrowserSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

interface Held {
  ecdh: ECDH;
  auth: string;
  /** What to answer: 201 unless the test says the subscription is gone. */
  status: number;
}

export interface PushService {
  origin: string;
  /** PEM of the service's certificate: the server trusts it through PUSH_CA_FILE. */
  caFile: string;
  /** A subscription as a browser would hand it to the page (subscription.toJSON()). */
  subscribe(): { id: string; subscription: BrowserSubscription };
  /** Every push that passed the checks, in arrival order. */
  received: ReceivedPush[];
  /** Requests refused by the checks, with the reason. */
  refused: string[];
  answerWith(id: string, status: number): void;
  /** Resolves with the first push matching, or fails after `timeoutMs`. */
  waitFor(match: (p: ReceivedPush) => boolean, timeoutMs?: number): Promise<ReceivedPush>;
  close(): Promise<void>;
}

function selfSignedCertificate(dir: string): { key: string; cert: string; certFile: string } {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

/** Checks `Authorization: vapid t=<jwt>, k=<key>` and returns the verified claims and key. */
async function checkVapid(header: string | undefined, origin: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`no VAPID authorization: ${header}`);
  const [jwt, k] = [match[1], match[2]];
  if (decodeProtectedHeader(jwt).alg !== 'ES256') throw new Error('VAPID JWT is not ES256');
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('VAPID key is not an uncompressed P-256 point');
  const key = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    'ES256',
  );
  const { payload } = await jwtVerify(jwt, key, { audience: origin });
  const now = Date.now() / 1000;
  if (typeof payload.exp !== 'number' || payload.exp > now + 24 * 3600)
    throw new Error('VAPID exp over 24 h');
  if (typeof payload.sub !== 'string' || !/^(mailto:|https:)/.test(payload.sub))
    throw new Error('VAPID sub is no contact');
  return { claims: { aud: origin, sub: payload.sub, exp: payload.exp }, vapidKey: k };
}

export async function startPushService(): Promise<PushService> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lantern-push-'));
  const { key, cert, certFile } = selfSignedCertificate(dir);
  const held = new Map<string, Held>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const waiters = new Set<() => void>();
  let origin = '';

  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      void (async () => {
        const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
        const sub = id ? held.get(id) : undefined;
        if (req.method !== 'POST' || !id || !sub) {
          res.writeHead(404).end();
          return;
        }
        try {
          const vapid = await checkVapid(req.headers.authorization, origin);
          if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
          if (req.headers.ttl === undefined) throw new Error('no TTL');
          const body = Buffer.concat(chunks);
          if (sub.status !== 201) {
            res.writeHead(sub.status).end();
            return;
          }
          const plain = ece.decrypt(body, {
            version: 'aes128gcm',
            privateKey: sub.ecdh,
            authSecret: sub.auth,
          });
          received.push({
            subscriptionId: id,
            at,
            payload: JSON.parse(plain.toString('utf8')),
            bytes: body.length,
            ttl: req.headers.ttl as string | undefined,
            urgency: req.headers.urgency as string | undefined,
            topic: req.headers.topic as string | undefined,
            ...vapid,
          });
          for (const wake of waiters) wake();
          res.writeHead(201, { location: `${origin}/message/${randomUUID()}` }).end();
        } catch (err) {
          refused.push((err as Error).message);
          res.writeHead(401).end();
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    origin,
    caFile: certFile,
    received,
    refused,
    subscribe() {
      const id = randomUUID();
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16).toString('base64url');
      held.set(id, { ecdh, auth, status: 201 });
      return {
        id,
        subscription: {
          endpoint: `${origin}/push/${id}`,
          expirationTime: null,
          keys: { p256dh: ecdh.getPublicKey('base64url'), auth },
        },
      };
    },
    answerWith(id, status) {
      const sub = held.get(id);
      if (sub) sub.status = status;
    },
    waitFor(match, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(match);
          if (!found) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(
            new Error(`no matching push within ${timeoutMs} ms (refused: ${refused.join('; ') || 'none'})`),
          );
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
