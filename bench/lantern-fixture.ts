// Lantern started in-process for the benchmark on 127.0.0.1: PGlite in a temporary directory, or a fresh
// PostgreSQL database when DATABASE_URL is set; one workspace, its channels, and one signed-in user per
// client written straight into the database (sign-in by e-mail code is not what is being measured).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createApp } from '../server/app.ts';
import { hashToken, newToken } from '../server/auth/tokens.ts';
import { createChannelWithRoles } from '../server/channels/setup.ts';
import { loadConfig } from '../server/config.ts';
import type { Db } from '../server/db/client.ts';
import { channelMembers, institutions, members, sessions, users } from '../server/db/schema.ts';
import type { LoadTarget } from './load.ts';

export interface LanternFixture {
  target: LoadTarget;
  database: string;
  /** The server's own database handle, for a floor that works on the same database. */
  db: Db;
  close(): Promise<void>;
}

/** A throwaway database next to the one DATABASE_URL names, dropped at the end. */
async function freshPostgres(databaseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lantern_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * `env` overrides configuration, e.g. a per-socket event budget high enough that a few load-generating
 * sockets can stand in for many people.
 */
export async function startLantern(
  clientCount: number,
  channelCount: number,
  env: Record<string, string> = {},
  /** PostgreSQL to make a fresh database next to; null for PGlite. */
  databaseUrl: string | null = process.env.DATABASE_URL ?? null,
): Promise<LanternFixture> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-bench-'));
  const postgres = databaseUrl ? await freshPostgres(databaseUrl) : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    // Dropping the benchmark's database ends the pool's idle connections: expected, not worth a warning.
    LOG_LEVEL: 'error',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  const server = await createApp(config);
  const { port } = await server.listen();
  const { db } = server.ctx;

  const institutionId = randomUUID();
  const userRows = Array.from({ length: clientCount }, (_, i) => ({
    id: randomUUID(),
    email: `bench${i}@bench.local`,
    name: `Bench ${i}`,
  }));
  const tokens = userRows.map(() => newToken());
  const memberRows = userRows.map((u, i) => ({
    id: randomUUID(),
    institutionId,
    userId: u.id,
    role: i === 0 ? ('primary_owner' as const) : ('member' as const),
  }));
  await db.insert(users).values(userRows);
  await db
    .insert(sessions)
    .values(
      userRows.map((u, i) => ({ id: randomUUID(), userId: u.id, tokenHash: hashToken(tokens[i] as string) })),
    );
  await db.insert(institutions).values({ id: institutionId, name: 'Bench' });
  await db.insert(members).values(memberRows);
  // Channels get their roles the way the app makes them, so the default role lets everyone post.
  const channelRows: { id: string }[] = [];
  for (let i = 0; i < channelCount; i++) {
    const { channel } = await createChannelWithRoles(db, {
      institutionId,
      name: `bench-${i}`,
      type: 'public',
      isDefault: false,
      createdBy: memberRows[0]?.id ?? null,
    });
    channelRows.push(channel);
  }
  // Client i posts in and listens to channel i mod channelCount, as the load does.
  await db.insert(channelMembers).values(
    memberRows.map((m, i) => ({
      id: randomUUID(),
      channelId: (channelRows[i % channelCount] as { id: string }).id,
      memberId: m.id,
    })),
  );

  return {
    target: {
      url: `http://127.0.0.1:${port}`,
      institutionId,
      channelIds: channelRows.map((c) => c.id),
      tokens,
    },
    database: postgres ? 'PostgreSQL' : 'PGlite',
    db,
    async close() {
      await server.close();
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
