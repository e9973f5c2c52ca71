// The server's start (decision 0075): what server/main.ts and the app it loads import statically, followed
// through our own files, must not reach the packages that load where they are first used. A static import
// of one of them anywhere on that path would load it at every start again, on every server, whether the
// feature is used or not. The start itself is measured by `npm run bench:start`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { staticPath } from '../support/static-imports.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** main.ts loads the app by a dynamic import after error reporting starts: both are the start. */
const ENTRIES = ['server/main.ts', 'server/app.ts'];

/** Loaded where first used, by package or subpath; each names where. */
const KEPT_OFF: Record<string, string> = {
  pg: 'server/db/client.ts, with DATABASE_URL',
  'drizzle-orm/node-postgres': 'server/db/client.ts, with DATABASE_URL',
  'drizzle-orm/node-postgres/migrator': 'server/db/client.ts, with DATABASE_URL',
  redis: 'server/http/rate-limits.ts and server/realtime/redis-adapter.ts, with REDIS_URL',
  '@socket.io/redis-streams-adapter': 'server/realtime/redis-adapter.ts, with REDIS_URL',
  nodemailer: 'server/mail/mailer.ts, with the first mail',
  'web-push': 'server/push/delivery.ts, with the first Web Push',
  ai: 'server/agents/model-run.ts, with the first answer a model writes (server/agents/runs.ts)',
  '@ai-sdk/anthropic': 'chooseModel in server/agents/model-provider.ts, with the first run on that provider',
  '@ai-sdk/openai-compatible':
    'chooseModel in server/agents/model-provider.ts, with the first run on that provider',
  '@modelcontextprotocol/sdk':
    'server/mcp/session.ts, with the first MCP session (server/mcp/connections.ts)',
  mammoth: 'server/agents/extract.ts, in the extraction worker, with the first Word document',
  unpdf: 'server/agents/extract.ts, in the extraction worker, with the first PDF',
  '@sentry/node': 'server/operations/error-reporting.ts, with SENTRY_DSN',
};

const readRepoFile = (file: string) => {
  const absolute = path.join(ROOT, file);
  return existsSync(absolute) ? readFileSync(absolute, 'utf8') : null;
};

describe("the server's start", () => {
  it('reaches none of the packages loaded where they are first used', () => {
    const { files, packages, specifiers } = staticPath(ENTRIES, readRepoFile);
    // A walk that found little would pass vacuously.
    expect(files.size).toBeGreaterThan(150);
    for (const reached of ['server/http/messages.ts', 'server/agents/runs.ts', 'server/mcp/connections.ts'])
      expect(files.has(reached)).toBe(true);
    const found = Object.keys(KEPT_OFF)
      .map((name) => [name, packages.get(name) ?? specifiers.get(name)] as const)
      .filter(([, importer]) => importer !== undefined)
      .map(([name, importer]) => `${name} (imported by ${importer}; belongs in ${KEPT_OFF[name]})`);
    expect(found).toEqual([]);
  });
});
