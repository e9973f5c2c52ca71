// Encrypts MCP connections' environment variables at rest with AES-256-GCM under the key in
// DATA_DIR/secrets.json: a copy of the database alone does not reveal API keys given to tool servers.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

function keyFrom(secret: string): Buffer {
  const key = Buffer.from(secret, 'base64url');
  if (key.length !== 32) throw new Error('mcpEncryptionKey must be 32 bytes');
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>`, each part base64url; a fresh 12-byte IV per value. */
export function sealEnvironment(secret: string, variables: Record<string, string>): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(variables), 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function openEnvironment(secret: string, sealed: string): Record<string, string> {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined)
    throw new Error('Unreadable stored variables');
  const decipher = createDecipheriv('aes-256-gcm', keyFrom(secret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const json = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
  return JSON.parse(json) as Record<string, string>;
}
