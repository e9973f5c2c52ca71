// A real Lantern server process for end-to-end tests: its own temporary DATA_DIR and free port; it can
// be stopped and started again on the same data and port (the offline test), and it reads sign-in
// codes from DATA_DIR/mail like a person reading their inbox.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { E2E_PGLITE_TEMPLATE_ENV, E2E_SECRETS_TEMPLATE_ENV } from './database-template.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** What `npm run build` makes of the server and `npm run serve` starts (decision 0059). */
export const BUILT_SERVER = path.join(ROOT, 'dist-server', 'main.js');

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** How long a test's own API call waits for its answer (a stuck call fails instead of hanging the test). */
const API_ANSWER_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} → ${status} ${JSON.stringify(body)}`);
  }
}

/** This Playwright worker's servers started and not stopped (a crashed one too): a failed test prints their logs (test.ts). */
const running = new Set<LanternServer>();
export const runningServers = (): LanternServer[] => [...running];

export class LanternServer {
  private child: ChildProcess | null = null;
  private output: string[] = [];

  /** Its data directory and port: chosen by `create`, or by the first start of a spec's server. */
  private place: { dataDir: string; port: number } | null = null;

  /** `env`: more configuration for this server (e.g. OPENAI_BASE_URL of a scripted model). */
  constructor(private readonly env: Record<string, string> = {}) {}

  /** A server with its data directory and port chosen, not started (the benchmarks seed it first). */
  static async create(env: Record<string, string> = {}): Promise<LanternServer> {
    const server = new LanternServer(env);
    await server.choosePlace();
    return server;
  }

  private async choosePlace(): Promise<void> {
    if (this.place) return;
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'lantern-e2e-'));
    this.place = { dataDir, port: await freePort() };
  }

  private chosen(): { dataDir: string; port: number } {
    if (!this.place) throw new Error('this server has no data directory or port yet: start it first');
    return this.place;
  }

  get dataDir(): string {
    return this.chosen().dataDir;
  }

  get port(): number {
    return this.chosen().port;
  }

  get url(): string {
    return `http://localhost:${this.port}`;
  }

  get mailDir(): string {
    return path.join(this.dataDir, 'mail');
  }

  /** Starts the built server (`npm run serve`: dist-server/main.js) and waits until the API answers. */
  async start(): Promise<void> {
    if (this.child) throw new Error('server already running');
    await this.choosePlace();
    // A first start begins from the run's migrated database and secrets (e2e/support/database-template.ts).
    const template = process.env[E2E_PGLITE_TEMPLATE_ENV];
    const dbDir = path.join(this.dataDir, 'db');
    if (template && !this.env.DATABASE_URL && !existsSync(dbDir))
      await cp(template, dbDir, { recursive: true });
    const secrets = process.env[E2E_SECRETS_TEMPLATE_ENV];
    const secretsFile = path.join(this.dataDir, 'secrets.json');
    if (secrets && !existsSync(secretsFile)) await cp(secrets, secretsFile);
    if (!existsSync(BUILT_SERVER))
      throw new Error('dist-server/main.js is missing: run `npm run build` first (it builds the server too)');
    const child = spawn(process.execPath, ['--enable-source-maps', BUILT_SERVER], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        PUBLIC_URL: this.url,
        CLIENT_DIR: path.join(ROOT, 'dist'),
        LOG_LEVEL: 'info',
        DATABASE_URL: '',
        REDIS_URL: '',
        SMTP_URL: '',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    running.add(this);
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString());
      if (this.output.length > 400) this.output.splice(0, 100);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`server exited with ${code}\n${this.log()}`))),
    );
    const deadline = Date.now() + 60_000;
    const ready = (async () => {
      while (Date.now() < deadline) {
        try {
          const res = await fetch(`${this.url}/api/users`);
          if (res.status === 401) return;
        } catch {
          // Not listening yet.
        }
        await sleep(200);
      }
      throw new Error(`server did not start in time\n${this.log()}`);
    })();
    await Promise.race([ready, exited]);
    exited.catch(() => {});
  }

  /** SIGTERM and wait for the process to end (the server closes sockets, HTTP and the database). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    running.delete(this);
    if (child.exitCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await gone;
    clearTimeout(timer);
  }

  /** Settings for the next start: a redeploy of the same data with other configuration. */
  configure(env: Record<string, string>): void {
    Object.assign(this.env, env);
  }

  async dispose(): Promise<void> {
    await this.stop();
    if (this.place) await rm(this.place.dataDir, { recursive: true, force: true });
  }

  /** How its process ended, when it did without being stopped; null while it runs. */
  get exited(): string | null {
    const child = this.child;
    if (!child || (child.exitCode === null && child.signalCode === null)) return null;
    return child.exitCode !== null ? `exit code ${child.exitCode}` : `signal ${child.signalCode}`;
  }

  log(): string {
    return this.output.join('').split('\n').slice(-60).join('\n');
  }

  /** The newest sign-in code mailed to `email` after `since` (epoch ms), waiting for it to arrive. */
  async readCode(email: string, since = 0): Promise<string> {
    const safe = email.toLowerCase().replace(/[^a-zA-Z0-9@._-]/g, '_');
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      let names: string[] = [];
      try {
        names = await readdir(this.mailDir);
      } catch {
        // The folder appears with the first mail.
      }
      const mine = names
        .filter((n) => n.endsWith('.eml') && n.includes(safe) && Number(n.split('-')[0]) >= since)
        .sort();
      const newest = mine[mine.length - 1];
      if (newest) {
        const text = await readFile(path.join(this.mailDir, newest), 'utf8');
        const match = /sign-in code(?: is|:)\s*(\d{6})/i.exec(text);
        if (match?.[1]) return match[1];
      }
      await sleep(150);
    }
    throw new Error(`no sign-in code for ${email} in ${this.mailDir}`);
  }

  /**
   * A JSON API call; throws ApiFailure on a non-2xx answer. One without an answer in 60 s fails naming
   * itself: lti.spec once hung to its 240 s limit with no step pending, which fits a call here never ending.
   */
  async api<T = unknown>(method: string, apiPath: string, token?: string | null, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const call = `${method} ${apiPath.split('?')[0]}`;
    const signal = AbortSignal.timeout(API_ANSWER_MS);
    let text: string;
    let res: Response;
    try {
      res = await fetch(this.url + apiPath, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
      text = await res.text();
    } catch (error) {
      if (signal.aborted) throw new Error(`${call}: no answer from the server in ${API_ANSWER_MS / 1000} s`);
      throw error;
    }
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    if (!res.ok) throw new ApiFailure(res.status, parsed, `${method} ${apiPath}`);
    return parsed as T;
  }

  /** Signs in through the API (a separate session from any browser), returning the access token. */
  async signInApi(email: string): Promise<{ token: string; userId: string }> {
    const since = Date.now() - 1;
    await this.api('GET', `/api/auth/signin_otp?email=${encodeURIComponent(email)}`);
    const code = await this.readCode(email, since);
    const res = await this.api<{ accessToken: string; user: { id: string } }>(
      'POST',
      '/api/auth/signin',
      undefined,
      {
        email,
        code,
      },
    );
    return { token: res.accessToken, userId: res.user.id };
  }
}
