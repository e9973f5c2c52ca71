// secrets.json is written whole or not at all, and a key is never generated over data it protects: a
// missing key that stored data depends on, or a file that cannot be read, stops the start with a message.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../schemas/protocol/index.ts';
import { loadSecrets, SecretsError } from '../../server/secrets.ts';
import { databases, startTestServer } from './harness.ts';
import { makeWorkspace } from './messaging-world.ts';

describe('server secrets', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lantern-secrets-'));
    file = path.join(dir, 'secrets.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const stored = () => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const nothingDependsOnIt = { mcpEncryptionKey: async () => false };
  const connectionsAreStored = { mcpEncryptionKey: async () => true };

  it('creates the file on first start, readable by the owner only, and keeps it across starts', async () => {
    const first = await loadSecrets(dir, nothingDependsOnIt);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['secrets.json']); // no temporary file left behind
    expect(await loadSecrets(dir, connectionsAreStored)).toEqual(first);
    expect(stored()).toEqual(first);
  });

  it('adds a missing key that protects nothing stored yet, keeping every other key', async () => {
    const first = await loadSecrets(dir);
    const { fileSigningKey: _dropped, ...rest } = first;
    writeFileSync(file, JSON.stringify({ ...rest, keyOfANewerVersion: 'kept as it is' }), { mode: 0o600 });
    const second = await loadSecrets(dir, connectionsAreStored);
    expect(second.otpPepper).toBe(first.otpPepper);
    expect(second.mcpEncryptionKey).toBe(first.mcpEncryptionKey);
    expect(second.fileSigningKey).toHaveLength(43);
    expect(stored()).toMatchObject({ ...second, keyOfANewerVersion: 'kept as it is' });
    expect(readdirSync(dir)).toEqual(['secrets.json']);
  });

  it('refuses to start when a missing key protects stored data, and leaves the file as it was', async () => {
    const first = await loadSecrets(dir);
    const { mcpEncryptionKey: _lost, ...rest } = first;
    const before = JSON.stringify(rest);
    writeFileSync(file, before, { mode: 0o600 });
    await expect(loadSecrets(dir, connectionsAreStored)).rejects.toThrow(SecretsError);
    await expect(loadSecrets(dir, connectionsAreStored)).rejects.toThrow(
      /has no mcpEncryptionKey, but stored data is encrypted or signed with it/,
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('refuses a missing file too when stored data depends on a key, instead of starting afresh', async () => {
    await expect(loadSecrets(dir, connectionsAreStored)).rejects.toThrow(/has no mcpEncryptionKey/);
    expect(existsSync(file)).toBe(false);
  });

  it('stops on a corrupt or malformed file instead of overwriting it', async () => {
    for (const content of ['{"otpPepper": "abc', JSON.stringify({ otpPepper: 'too short' })]) {
      writeFileSync(file, content, { mode: 0o600 });
      await expect(loadSecrets(dir, nothingDependsOnIt)).rejects.toThrow(SecretsError);
      expect(readFileSync(file, 'utf8')).toBe(content);
    }
  });
});

describe.each(databases)('a server whose secrets.json lost a key (%s)', (kind) => {
  it('refuses to start over saved MCP connections instead of making their variables unreadable', async () => {
    const t = await startTestServer(kind, { onDisk: true });
    try {
      const ws = await makeWorkspace(t);
      const agent = await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, {
        name: 'Keeper',
      });
      const saved = await ws.owner.api.post(
        `/api/institutions/${ws.id}/agents/${agent.body.agent.id}/mcp-connections`,
        { name: 'Memory', transport: { type: 'stdio', command: 'mcp-server-memory' } },
      );
      expect(saved.status).toBe(201);

      const file = path.join(t.config.dataDir, 'secrets.json');
      const { mcpEncryptionKey: _lost, ...rest } = JSON.parse(readFileSync(file, 'utf8'));
      const damaged = JSON.stringify(rest);
      writeFileSync(file, damaged, { mode: 0o600 });
      await expect(t.restart()).rejects.toThrow(/has no mcpEncryptionKey/);
      expect(readFileSync(file, 'utf8')).toBe(damaged);
    } finally {
      await t.close();
    }
    // A server on disk, an MCP process and a restart: slow on a loaded 2-core machine.
  }, 90_000);
});
