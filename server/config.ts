// Configuration from the environment, validated once at start-up. Every variable has an embedded default
// so that `npm start` needs nothing installed but Node.
import path from 'node:path';
import { z } from 'zod';
import { buildId, routeRules } from '../schemas/protocol/app-version.ts';
import { FILE_MAX_BYTES_DEFAULT } from '../schemas/protocol/files.ts';
import { MIN_PROTOCOL_VERSION } from '../schemas/protocol/version.ts';
import { firebaseSetting, oidcProvidersSetting } from './identity/provider-config.ts';

const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.string().url().optional());

/** A secret or name that counts as unset when empty (an `export KEY=` line in a shell means "none"). */
const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v));

/**
 * A comma-separated list of origins (scheme://host[:port]) or the CSP keywords 'self' / 'none', for a
 * Content-Security-Policy directive. Anything else (a path, a space, a `;`) could rewrite the policy.
 */
const cspOriginList = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  )
  .refine(
    (list) =>
      list.every((entry) => {
        if (entry === "'self'" || entry === "'none'") return true;
        if (!URL.canParse(entry)) return false;
        const url = new URL(entry);
        return /^(https?|wss?):$/.test(url.protocol) && url.origin === entry.replace(/\/$/, '');
      }),
    { message: "must be comma-separated origins such as https://push.example.com, or 'self' / 'none'" },
  );

// ── Parsers of the session, proxy and sign-up settings ──
/** `false`, a hop count (`true` = 1 hop), or a list of proxy addresses/CIDRs for Fastify's trustProxy. */
const trustProxy = z
  .string()
  .trim()
  .transform((v, zctx): false | number | string[] => {
    if (v === '' || v === 'false' || v === '0') return false;
    if (v === 'true') return 1;
    if (/^\d{1,2}$/.test(v)) return Number(v);
    const list = v
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const bad = list.find((p) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(p));
    if (bad !== undefined) {
      zctx.addIssue({ code: 'custom', message: `"${bad}" is not a hop count or a proxy address/CIDR` });
      return z.NEVER;
    }
    return list;
  });

export type SignupPolicy =
  | { kind: 'open' }
  | { kind: 'invite-only' }
  | { kind: 'domains'; domains: string[] };
const signupPolicy = z
  .string()
  .trim()
  .transform((v, zctx): SignupPolicy => {
    if (v === '' || v === 'open') return { kind: 'open' };
    if (v === 'invite-only') return { kind: 'invite-only' };
    const domains = v
      .split(',')
      .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
      .filter(Boolean);
    if (domains.length === 0 || domains.some((d) => !/^[a-z0-9.-]+\.[a-z0-9-]+$/.test(d))) {
      zctx.addIssue({
        code: 'custom',
        message: 'expected open, invite-only, or a comma-separated list of domains',
      });
      return z.NEVER;
    }
    return { kind: 'domains', domains };
  });

export type WorkspaceCreationPolicy = { kind: 'anyone' } | { kind: 'listed'; emails: string[] };
const workspaceCreationPolicy = z
  .string()
  .trim()
  .transform((v, zctx): WorkspaceCreationPolicy => {
    if (v === '' || v === 'anyone') return { kind: 'anyone' };
    const emails = v
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean);
    if (emails.length === 0 || emails.some((e) => !/^[^\s@,]+@[^\s@,]+$/.test(e))) {
      zctx.addIssue({
        code: 'custom',
        message: 'expected anyone, or a comma-separated list of e-mail addresses',
      });
      return z.NEVER;
    }
    return { kind: 'listed', emails };
  });

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * The oldest client protocol answered (schemas/protocol/version.ts): an older client is asked to reload
   * (REST 426, socket refusal). Defaults to MIN_PROTOCOL_VERSION; raise it to retire clients sooner.
   */
  PROTOCOL_MIN_VERSION: z.coerce.number().int().min(1).default(MIN_PROTOCOL_VERSION),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /** PostgreSQL through node-postgres; without it the embedded PGlite in DATA_DIR/db is used. */
  DATABASE_URL: optionalUrl.optional(),
  /** socket.io Redis streams adapter between nodes; without it the in-process adapter is used. */
  REDIS_URL: optionalUrl.optional(),
  /** nodemailer SMTP transport; without it mail is written to DATA_DIR/mail as .eml files. */
  SMTP_URL: optionalUrl.optional(),
  MAIL_FROM: z.string().default('Lantern <no-reply@lantern.local>'),
  /**
   * Public address of the app, used in links inside e-mails. Unset: http://localhost:PORT, the address this
   * server answers on. Never guessed from a request's Host header: anyone can send any Host, and invitation
   * mail would then carry their link (docs/decisions/0042-public-url.md).
   */
  PUBLIC_URL: optionalUrl.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Which deployment this is (spec §9): `development` (set by `npm run dev`) never reports errors; the
   * client shows refresh failures as toasts in development, test and staging. Decision 0040.
   */
  ENVIRONMENT: z.enum(['development', 'test', 'staging', 'production']).default('production'),
  /** Bearer token a Prometheus scraper sends for GET /metrics; without it /metrics answers 404. */
  METRICS_TOKEN: optionalText.optional().refine((v) => v === undefined || v.length >= 16, {
    message: 'must be at least 16 characters (it guards the metrics)',
  }),
  /** Sentry or GlitchTip DSN for the server's errors (and, served to it, the client's); unset: none sent. */
  SENTRY_DSN: optionalUrl.optional(),
  /** A separate DSN (project) for the client's errors; defaults to SENTRY_DSN. */
  SENTRY_CLIENT_DSN: optionalUrl.optional(),
  /** Directory of the built client (vite build); served as static files when it exists. */
  CLIENT_DIR: z.string().default('./dist'),
  /**
   * The client build id the server announces (GET /api/version, the socket's serverBuild). Unset: read from
   * CLIENT_DIR/version.json, which the vite build writes. Decision 0043.
   */
  BUILD_ID: optionalText.optional().pipe(buildId.optional()),
  /**
   * Spec §2 route rules as JSON, e.g. {"/join": {"redirect": "https://example.com/join"}}: a tab opening that
   * path goes to the target (another site by a full page load). Unset: none.
   */
  ROUTE_RULES: optionalText
    .optional()
    .transform((v, zctx): unknown => {
      if (v === undefined) return {};
      try {
        return JSON.parse(v);
      } catch {
        zctx.addIssue({ code: 'custom', message: 'must be JSON such as {"/join": {"redirect": "/"}}' });
        return z.NEVER;
      }
    })
    .pipe(routeRules),
  /**
   * Which proxies' X-Forwarded-For to believe for the client IP (rate limits): `false` (none), a hop
   * count (`1` = one load balancer; `true` means 1), or a comma-separated list of proxy addresses/CIDRs.
   * Never trust-all: that would let any client choose its own IP and escape every per-IP limit.
   */
  TRUST_PROXY: z.string().default('false').pipe(trustProxy),
  /**
   * Sign-in code requests allowed per hour for one address (from all IPs together; high, so that a stranger
   * cannot use it up easily: see OTP_PER_EMAIL_IP_PER_HOUR and decision 0014) and per client IP (higher
   * still, because offices and carriers share addresses).
   */
  OTP_PER_EMAIL_PER_HOUR: z.coerce.number().int().min(1).default(30),
  OTP_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(100),
  /** Largest file accepted for upload, in bytes (413 beyond it). */
  FILE_MAX_BYTES: z.coerce.number().int().min(1).default(FILE_MAX_BYTES_DEFAULT),
  /**
   * An S3-compatible store for file bytes (all five together); without them files are kept on disk under
   * DATA_DIR/files. The endpoint is addressed path-style: <S3_ENDPOINT>/<S3_BUCKET>/<key>.
   */
  S3_ENDPOINT: optionalUrl.optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /**
   * Upload bytes one person may hold across all workspaces (signed uploads and stored files together);
   * asking to upload past it is refused with 413. Default 2 GiB.
   */
  UPLOAD_BYTES_PER_USER: z.coerce
    .number()
    .int()
    .min(1)
    .default(2 * 1024 ** 3),
  /** Upload bytes one workspace may hold, everyone's together; past it uploads are refused. Default 20 GiB. */
  UPLOAD_BYTES_PER_WORKSPACE: z.coerce
    .number()
    .int()
    .min(1)
    .default(20 * 1024 ** 3),
  /**
   * Which stdio MCP servers agents may start: comma-separated entries, each a whole command line
   * (`npx -y @modelcontextprotocol/server-filesystem {folder}`); a connection matches only when its command
   * line equals an entry, token for token, where `{folder}` stands for a folder inside MCP_FILESYSTEM_ROOT.
   * Default: the bundled Memory server only (the bundled "everything" server is a test fixture).
   */
  MCP_STDIO_ALLOWLIST: z.string().default('mcp-server-memory'),
  /** Time allowed to start (or reach) an MCP server and list its tools, in milliseconds. */
  MCP_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** Time allowed for one MCP tool call, in milliseconds. */
  MCP_TOOL_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * Variable names a stdio MCP connection may set besides those its template declares (comma-separated).
   * Names that change how programs load or run (NODE_*, LD_*, PATH, *_OPTIONS, …) are refused whatever
   * this says. Default: none.
   */
  MCP_STDIO_ENV_ALLOWLIST: z.string().default(''),
  /** The folder a `{folder}` placeholder must stay inside; default DATA_DIR/mcp-folders. */
  MCP_FILESYSTEM_ROOT: optionalText.optional(),
  /**
   * Whether HTTP MCP connections may reach loopback and private-network addresses (an MCP server on the
   * intranet). Off by default: any admin could otherwise probe internal services through the server.
   */
  MCP_HTTP_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Most MCP connections one agent may have. */
  MCP_CONNECTIONS_PER_AGENT: z.coerce.number().int().min(1).default(10),
  /** Most stdio MCP server processes running at once for one workspace, and on this server in all. */
  MCP_PROCESSES_PER_WORKSPACE: z.coerce.number().int().min(1).default(10),
  MCP_PROCESSES_PER_SERVER: z.coerce.number().int().min(1).default(50),
  /** Most "test connection" requests running at once for one workspace, and on this server in all. */
  MCP_TESTS_PER_WORKSPACE: z.coerce.number().int().min(1).default(2),
  MCP_TESTS_PER_SERVER: z.coerce.number().int().min(1).default(10),
  /** Time allowed to fetch a URL knowledge source (redirects and body included), in milliseconds. */
  KNOWLEDGE_URL_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** Largest body read from a URL knowledge source, in bytes (after decompression). */
  KNOWLEDGE_URL_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(10 * 1024 * 1024),
  /**
   * Whether URL knowledge sources may be fetched from loopback and private-network addresses (an
   * intranet wiki). Off by default: any admin could otherwise read internal services through an agent.
   */
  KNOWLEDGE_URL_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * Whether link previews may fetch pages on loopback and private-network addresses. Off by default: any
   * member could otherwise read the titles of internal services through a message (decision 0053).
   */
  LINK_PREVIEW_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * An OpenAI-compatible chat-completions server (OpenAI, Ollama, vLLM, llama.cpp): configured when the base
   * URL or the key is set; the base URL defaults to OpenAI's. Decision 0009 gives the precedence.
   */
  OPENAI_BASE_URL: optionalUrl.optional(),
  OPENAI_API_KEY: optionalText.optional(),
  OPENAI_MODEL: z.string().default('gpt-4o-mini'),
  /** Anthropic's Messages API: configured when the key is set. */
  ANTHROPIC_API_KEY: optionalText.optional(),
  ANTHROPIC_BASE_URL: optionalUrl.optional(),
  ANTHROPIC_MODEL: z.string().default('claude-sonnet-4-5'),
  /** How long a tool call waits for the asker's approval before it counts as rejected, in milliseconds. */
  AGENT_APPROVAL_TIMEOUT_MS: z.coerce.number().int().min(100).default(600_000),
  /**
   * Extra origins the client may connect to (Content-Security-Policy connect-src), comma-separated, e.g.
   * a push service or an identity provider: `https://push.example.com,https://id.example.com`. The app's
   * own origin (and its websocket) and the S3 endpoint are always allowed. Decision 0016.
   */
  CSP_CONNECT_SRC: cspOriginList.prefault(''),
  /**
   * Who may show the app in a frame (Content-Security-Policy frame-ancestors): `'none'` (default),
   * `'self'`, or comma-separated origins of the pages allowed to embed it. Decision 0016.
   */
  FRAME_ANCESTORS: cspOriginList.prefault("'none'"),
  // Agent and knowledge limits (decision 0013): what one workspace's agents may cost the server.
  /** Agent runs one workspace may have going at once; more wait in the queue, in order. */
  AGENT_RUNS_PER_WORKSPACE: z.coerce.number().int().min(1).default(4),
  /**
   * The models agents may use, comma-separated `provider:model` (`openai:gpt-4o-mini,anthropic:claude-sonnet-4-5`);
   * the first is the default of agents that name none. Empty: only the configured provider's default model.
   */
  AGENT_MODELS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .max(200)
          .regex(
            /^(openai|anthropic):\S/,
            'each model must be written provider:model, e.g. openai:gpt-4o-mini',
          ),
      ),
    ),
  /**
   * The most tokens (in + out) one workspace's agents may use per UTC day; a workspace's own cap can only
   * be lower. 0 turns the server-wide cap off.
   */
  AGENT_DAILY_TOKEN_CAP: z.coerce.number().int().min(0).default(1_000_000),
  /** Heap of the worker thread that reads one knowledge document, in MB (the source fails beyond it). */
  KNOWLEDGE_EXTRACT_MAX_MB: z.coerce.number().int().min(16).default(256),
  /** Documents read at once on this server (each in its own worker thread); more wait their turn. */
  KNOWLEDGE_EXTRACT_CONCURRENCY: z.coerce.number().int().min(1).default(2),
  /** Time allowed to read one knowledge document's text, in milliseconds (the source fails beyond it). */
  KNOWLEDGE_EXTRACT_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** Largest total a document archive (.docx) may unpack to, declared or actual, in bytes. */
  KNOWLEDGE_MAX_UNCOMPRESSED_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(50 * 1024 * 1024),

  // ── Sessions, rate limits and who may join ──
  /** A session unused for this many days stops working (401 'session invalid', as if revoked). */
  SESSION_IDLE_DAYS: z.coerce.number().positive().default(30),
  /** A session stops working this many days after sign-in, however much it is used. */
  SESSION_MAX_DAYS: z.coerce.number().positive().default(90),
  /**
   * Open sockets allowed per session; one more is refused at the handshake. A browser holds one per
   * worker (one per tab where SharedWorker is missing), so 30 leaves room for many tabs and reconnects.
   */
  SOCKETS_PER_SESSION: z.coerce.number().int().min(1).default(30),
  /**
   * REST requests allowed per client IP and per signed-in user in each RATE_LIMIT_WINDOW_SECONDS, counted
   * across nodes (in Redis when REDIS_URL is set). Generous: an office behind one address and a client
   * catching up after a day offline both make many requests.
   */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(3000),
  RATE_LIMIT_PER_USER: z.coerce.number().int().min(1).default(1200),
  /**
   * Socket events one socket may send: a bucket of SOCKET_EVENT_BURST refilled at SOCKET_EVENTS_PER_SECOND.
   * Beyond it an event is answered "Too many requests"; a socket that keeps pushing is disconnected.
   */
  SOCKET_EVENTS_PER_SECOND: z.coerce.number().positive().default(20),
  SOCKET_EVENT_BURST: z.coerce.number().int().min(1).default(200),
  /** Sign-in codes one client IP may request for one address per hour (the address's own ceiling is OTP_PER_EMAIL_PER_HOUR). */
  OTP_PER_EMAIL_IP_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /** Invitation e-mails per inviting person and per workspace per day (UTC). */
  INVITES_PER_USER_PER_DAY: z.coerce.number().int().min(0).default(100),
  INVITES_PER_WORKSPACE_PER_DAY: z.coerce.number().int().min(0).default(500),
  /** Who may create an account: `open`, `invite-only`, or a comma-separated list of e-mail domains. */
  SIGNUP: z.string().default('open').pipe(signupPolicy),
  /** Who may create workspaces: `anyone`, or a comma-separated list of e-mail addresses. */
  WORKSPACE_CREATION: z.string().default('anyone').pipe(workspaceCreationPolicy),

  // ── Sign-in through identity providers (decision 0025) ──
  /**
   * OpenID Connect providers as a JSON array: `[{"id":"google","preset":"google","clientId":"…","clientSecret":"…"}]`.
   * Fields: id, preset (google, microsoft, apple), issuer, clientId, clientSecret, scopes, name, icon,
   * allowedDomains, allowSignup, trustedDomains, tenants. Empty: e-mail code only.
   */
  OIDC_PROVIDERS: z.string().default('').pipe(oidcProvidersSetting),
  /** The Firebase web app's keys as JSON (apiKey, authDomain, projectId, …): the optional Firebase adapter. */
  FIREBASE_CONFIG: z.string().default('').pipe(firebaseSetting),
  /** Where Firebase's ID-token signing keys are published (a test points it at its own issuer). */
  FIREBASE_JWKS_URL: z
    .string()
    .url()
    .default('https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com'),
  /** How long a provider sign-in may take from the button to the end, in seconds. */
  IDENTITY_LOGIN_TTL_SECONDS: z.coerce.number().int().min(30).default(600),
  // ── LTI 1.3 tool (server/lti/, decision 0027) ──
  /**
   * Whether the addresses of LTI platforms that workspace admins register (key set, token, membership and
   * registration endpoints) may be loopback or private-network addresses (a Moodle on the intranet). Off
   * by default: any admin could otherwise make the server probe internal services.
   */
  LTI_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  // ── Web Push (decision 0032) ──
  /** The contact push services may write to about our pushes (VAPID `sub`): a mailto: or https: address. */
  PUSH_VAPID_SUBJECT: z
    .string()
    .trim()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'must be a mailto: or https: address')
    .default('mailto:postmaster@localhost'),
  /**
   * Whether push endpoints may be loopback or private-network addresses (a push service on the intranet,
   * the tests' local one). Off by default: the endpoint is a URL any signed-in browser sends.
   */
  PUSH_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** PEM file of extra certificate authorities trusted for push endpoints (a self-hosted push relay). */
  PUSH_CA_FILE: optionalText.optional(),
  /**
   * Pushes carry only ids (channel, workspace, message), never the text: the service worker fills in the
   * notification from the server. For operators who want no message text to pass a push service.
   */
  PUSH_ID_ONLY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Time allowed to hand one push to the push service, in milliseconds. */
  PUSH_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  // ── Firebase Cloud Messaging (decision 0046) ──
  /**
   * A Firebase service account's JSON key file (project_id, client_email, private_key): registration
   * tokens (a string `fcmToken`) are then accepted and pushed to through the FCM HTTP v1 API. Or the
   * three fields below. Neither: only standard Web Push subscriptions.
   */
  FCM_SERVICE_ACCOUNT_FILE: optionalText.optional(),
  FCM_PROJECT_ID: optionalText.optional(),
  FCM_CLIENT_EMAIL: optionalText.optional(),
  /** The service account's PEM private key; `\n` stands for a line break (one-line environment files). */
  FCM_PRIVATE_KEY: optionalText.optional(),
  /** Where the service account's signed JWT is exchanged for an access token (Google OAuth 2.0). */
  FCM_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  /** The FCM API's origin; messages go to {this}/v1/projects/{project}/messages:send. */
  FCM_API_URL: z.string().url().default('https://fcm.googleapis.com'),
});

export type RawConfig = z.infer<typeof configSchema>;

export interface Config extends Omit<RawConfig, 'PUBLIC_URL'> {
  PUBLIC_URL: string;
  dataDir: string;
  dbDir: string;
  mailDir: string;
  filesDir: string;
  /** Tests only: a migrated PGlite dump an in-memory database starts from (server/db/client.ts). */
  pgliteTemplate?: Blob;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  return {
    ...parsed.data,
    // PORT 0 (any free port, as tests use) names no port a link could carry: the usual 3000 then.
    PUBLIC_URL: parsed.data.PUBLIC_URL ?? `http://localhost:${parsed.data.PORT || 3000}`,
    dataDir,
    dbDir: path.join(dataDir, 'db'),
    mailDir: path.join(dataDir, 'mail'),
    filesDir: path.join(dataDir, 'files'),
  };
}
