// Server secrets, generated on first start and kept in DATA_DIR/secrets.json (mode 0600) so that codes and
// signatures made before a restart stay valid after it. Several nodes behind a load balancer must share
// the file (or the same DATA_DIR).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const secretsSchema = z.object({
  /** HMAC key for sign-in codes: a stolen database alone cannot be used to read or guess live codes. */
  otpPepper: z.string().min(32),
  /** HMAC key for upload addresses of the server's own file store (server/files/upload-signature.ts). */
  fileSigningKey: z.string().min(32),
  /** AES-256-GCM key (32 bytes, base64url) for MCP connections' environment variables at rest. */
  mcpEncryptionKey: z.string().min(32),
});
export type Secrets = z.infer<typeof secretsSchema>;

const generate = (): Secrets => ({
  otpPepper: randomBytes(32).toString('base64url'),
  fileSigningKey: randomBytes(32).toString('base64url'),
  mcpEncryptionKey: randomBytes(32).toString('base64url'),
});

export function loadSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const stored = secretsSchema.partial().parse(JSON.parse(readFileSync(file, 'utf8')));
    // Keys added in later versions are generated once and written back beside the old ones.
    const merged = { ...generate(), ...stored };
    if (Object.keys(stored).length !== Object.keys(merged).length) write(file, merged);
    return merged;
  }
  mkdirSync(dataDir, { recursive: true });
  const fresh = generate();
  write(file, fresh);
  return fresh;
}

function write(file: string, secrets: Secrets) {
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}
