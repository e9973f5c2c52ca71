// Starts a real Lantern server in-process for integration tests: port 0, a temporary DATA_DIR, PGlite in
// memory or a fresh PostgreSQL database (when DATABASE_URL is set), real HTTP and real mail files.
// Suites run once per database: `describe.each(databases)('…', (kind) => …)`.
// Every answer its REST client gets is parsed against the route's declared schema (schemas/protocol/routes.ts)
// or the error schema, so a test fails on an answer a client could not read.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { z } from 'zod';
import {
  BYTES,
  type ErrorBody,
  errorBody,
  findRoute,
  type SigninResponse,
  type User,
} from '../../schemas/protocol/index.ts';
import { createApp, type LanternServer } from '../../server/app.ts';
import { type Config, loadConfig } from '../../server/config.ts';
import type { AppContext } from '../../server/context.ts';
import { PGLITE_TEMPLATE_ENV, POSTGRES_TEMPLATE_ENV, SECRETS_TEMPLATE_ENV } from '../database-templates.ts';

export type DatabaseKind = 'pglite' | 'postgres';
export const databases: DatabaseKind[] = [
  'pglite',
  ...(process.env.DATABASE_URL ? (['postgres'] as const) : []),
];

export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Api {
  get<T = ErrorBody>(url: string): Promise<ApiResponse<T>>;
  post<T = ErrorBody>(url: string, body?: unknown): Promise<ApiResponse<T>>;
  put<T = ErrorBody>(url: string, body?: unknown): Promise<ApiResponse<T>>;
  delete<T = ErrorBody>(url: string, body?: unknown): Promise<ApiResponse<T>>;
}

export interface TestUser {
  token: string;
  user: User;
  api: Api;
}

export interface TestServer {
  kind: DatabaseKind;
  url: string;
  port: number;
  config: Config;
  ctx: AppContext;
  server: LanternServer;
  /** A REST client, with the token as Bearer when given. */
  api(token?: string): Api;
  /** Requests a code, reads it from the mail folder and signs in; a fresh address when none is given. */
  signUp(email?: string): Promise<TestUser>;
  /** The sign-in code most recently mailed to this address. */
  lastCode(email: string): string;
  /** Stops and starts the server on the same data and port (needs `onDisk` for PGlite). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Extra environment for loadConfig, e.g. lower rate limits. */
  env?: Record<string, string>;
  /** Keep PGlite on disk under DATA_DIR (for restart tests) instead of in memory. */
  onDisk?: boolean;
}

export const uniqueEmail = (prefix = 'user') => `${prefix}-${randomBytes(4).toString('hex')}@example.com`;

function adminUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  return url;
}

/** The migrated PGlite dump tests/database-templates.ts made for this run, read once per worker. */
let pgliteTemplate: Blob | undefined;
function pgliteTemplateBlob(): Blob | undefined {
  const file = process.env[PGLITE_TEMPLATE_ENV];
  if (!pgliteTemplate && file) pgliteTemplate = new Blob([readFileSync(file)]);
  return pgliteTemplate;
}

async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lantern_t_${randomBytes(6).toString('hex')}`;
  const template = process.env[POSTGRES_TEMPLATE_ENV];
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Paths of `raw` that `parsed` lacks: fields the server sends that the schema does not declare. */
function undeclaredFields(raw: unknown, parsed: unknown, at = ''): string[] {
  if (Array.isArray(raw) && Array.isArray(parsed))
    return raw.flatMap((item, i) => undeclaredFields(item, parsed[i], `${at}[${i}]`));
  if (typeof raw !== 'object' || raw === null || typeof parsed !== 'object' || parsed === null) return [];
  return Object.entries(raw).flatMap(([key, value]) =>
    key in parsed
      ? undeclaredFields(value, (parsed as Record<string, unknown>)[key], `${at}.${key}`)
      : [`${at}.${key}`],
  );
}

/**
 * The body as a client reads it: a 2xx answer parsed with its route's schema, any other with the error
 * schema. Throws when the route is not declared (unless the server has no such route either: a 404) or the
 * answer does not match, naming the route and what differs.
 */
export function checkAnswer(method: string, url: string, status: number, body: unknown): unknown {
  const route = findRoute(method, new URL(url, 'http://lantern.invalid').pathname);
  const label = `${method} ${url} → ${status}`;
  if (!route) {
    if (status === 404 && errorBody.safeParse(body).success) return body;
    throw new Error(`${label}: no route in schemas/protocol/routes.ts matches ${method} ${url}`);
  }
  const ok = status >= 200 && status < 300;
  if (ok && route.response === BYTES) return body;
  const schema = ok && route.response !== BYTES ? route.response : errorBody;
  const result = schema.safeParse(body);
  const declared = ok ? `restRoutes.${route.name} (${route.path})` : 'errorBody';
  if (!result.success)
    throw new Error(
      `${label}: the answer does not match ${declared}:\n${z.prettifyError(result.error)}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  const extra = undeclaredFields(body, result.data);
  if (extra.length > 0)
    throw new Error(`${label}: the answer has fields ${declared} does not declare: ${extra.join(', ')}`);
  return result.data;
}

export function makeApi(baseUrl: string, token?: string): Api {
  const call = async <T>(method: string, url: string, body?: unknown): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(new URL(url, baseUrl), {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    const isJson = res.headers.get('content-type')?.includes('application/json');
    const raw: unknown = isJson && text ? JSON.parse(text) : text;
    return {
      status: res.status,
      body: checkAnswer(method, url, res.status, raw) as T,
      headers: res.headers,
    };
  };
  return {
    get: (url) => call('GET', url),
    post: (url, body) => call('POST', url, body),
    put: (url, body) => call('PUT', url, body),
    delete: (url, body) => call('DELETE', url, body),
  };
}

export async function startTestServer(
  kind: DatabaseKind,
  options: TestServerOptions = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-test-'));
  const pgDb = kind === 'postgres' ? await createPostgresDatabase() : null;
  const config: Config = {
    ...loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      CLIENT_DIR: path.join(dataDir, 'no-client'),
      // Every test signs in from 127.0.0.1: the per-IP limit is tested on its own, with a low value.
      OTP_PER_IP_PER_HOUR: '100000',
      OTP_PER_EMAIL_PER_HOUR: '1000',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
      ...options.env,
    }),
  };
  if (kind === 'pglite' && !options.onDisk) {
    config.dbDir = 'memory://';
    const template = pgliteTemplateBlob();
    if (template) config.pgliteTemplate = template;
  } else if (kind === 'pglite') {
    // On disk too the database starts as a copy of the migrated template rather than from initdb; the server
    // then opens the folder as it would its own, and its migrator finds every migration applied.
    const template = pgliteTemplateBlob();
    if (template) await (await PGlite.create(config.dbDir, { loadDataDir: template })).close();
  }

  const secrets = process.env[SECRETS_TEMPLATE_ENV];
  if (secrets) copyFileSync(secrets, path.join(dataDir, 'secrets.json'));

  let server = await createApp(config);
  let { url, port } = await server.listen();

  const lastCode = (email: string): string => {
    const files = readdirSync(config.mailDir)
      .filter((f) => f.includes(`-${email}-`))
      .sort();
    const newest = files.at(-1);
    if (!newest) throw new Error(`no mail for ${email}`);
    const match = /Subject: Your Lantern sign-in code: (\d{6})/.exec(
      readFileSync(path.join(config.mailDir, newest), 'utf8'),
    );
    if (!match?.[1]) throw new Error(`no code in ${newest}`);
    return match[1];
  };

  const test: TestServer = {
    kind,
    get url() {
      return url;
    },
    get port() {
      return port;
    },
    config,
    get ctx() {
      return server.ctx;
    },
    get server() {
      return server;
    },
    api: (token) => makeApi(url, token),
    lastCode,
    async signUp(email = uniqueEmail()) {
      const anon = makeApi(url);
      const requested = await anon.get(`/api/auth/signin_otp?email=${encodeURIComponent(email)}`);
      if (requested.status !== 200)
        throw new Error(`signin_otp: ${requested.status} ${requested.body.message}`);
      const signedIn = await anon.post<SigninResponse>('/api/auth/signin', { email, code: lastCode(email) });
      if (signedIn.status !== 200)
        throw new Error(`signin: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
      const { accessToken, user } = signedIn.body;
      return { token: accessToken, user, api: makeApi(url, accessToken) };
    },
    async restart() {
      await server.close();
      server = await createApp({ ...config, PORT: port });
      ({ url, port } = await server.listen());
    },
    async close() {
      await server.close();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return test;
}
