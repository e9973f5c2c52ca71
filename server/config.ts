// Configuration from the environment, validated once at start-up. Every variable has an embedded default
// so that `npm start` needs nothing installed but Node.
import path from 'node:path';
import { z } from 'zod';

const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.string().url().optional());

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /** PostgreSQL through node-postgres; without it the embedded PGlite in DATA_DIR/db is used. */
  DATABASE_URL: optionalUrl.optional(),
  /** socket.io Redis streams adapter between nodes; without it the in-process adapter is used. */
  REDIS_URL: optionalUrl.optional(),
  /** nodemailer SMTP transport; without it mail is written to DATA_DIR/mail as .eml files. */
  SMTP_URL: optionalUrl.optional(),
  MAIL_FROM: z.string().default('Lantern <no-reply@lantern.local>'),
  /** Public address of the app, used in links inside e-mails. */
  PUBLIC_URL: z.string().url().default('http://localhost:3000'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Directory of the built client (vite build); served as static files when it exists. */
  CLIENT_DIR: z.string().default('./dist'),
  /** Trust X-Forwarded-For from a load balancer for per-IP rate limits. */
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * Sign-in code requests allowed per hour, per address and per client IP. The address limit stops mail
   * bombing one person; the IP limit is higher because offices and carriers share addresses (NAT).
   */
  OTP_PER_EMAIL_PER_HOUR: z.coerce.number().int().min(1).default(10),
  OTP_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(100),
  /** Largest file accepted for upload, in bytes (413 beyond it). */
  FILE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(25 * 1024 * 1024),
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
   * Which stdio MCP servers agents may start: comma-separated entries, each a command and optionally its
   * first arguments (`npx -y @modelcontextprotocol/server-filesystem`); a connection matches when its
   * command line begins with an entry. Default: the servers bundled with Lantern.
   */
  MCP_STDIO_ALLOWLIST: z.string().default('mcp-server-memory,mcp-server-everything'),
  /** Time allowed to start (or reach) an MCP server and list its tools, in milliseconds. */
  MCP_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** Time allowed for one MCP tool call, in milliseconds. */
  MCP_TOOL_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
});

export type RawConfig = z.infer<typeof configSchema>;

export interface Config extends RawConfig {
  dataDir: string;
  dbDir: string;
  mailDir: string;
  filesDir: string;
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
    dataDir,
    dbDir: path.join(dataDir, 'db'),
    mailDir: path.join(dataDir, 'mail'),
    filesDir: path.join(dataDir, 'files'),
  };
}
