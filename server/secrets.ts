// Server secrets, generated on first start and kept in DATA_DIR/secrets.json (mode 0600) so that codes and
// signatures made before a restart stay valid after it. Several nodes behind a load balancer must share
// the file (or the same DATA_DIR).
//
// The file is only ever replaced whole (a temporary file beside it, fsync, rename), so a crash or a full
// disk never leaves half of it. A key that is missing is generated only when nothing stored depends on
// it: a new key over data the old one protected would make that data unreadable for good, so the server
// refuses to start and says which key to restore. A file that cannot be read is never overwritten.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const secretsSchema = z.object({
  /** HMAC key for sign-in codes: a stolen database alone cannot be used to read or guess live codes. */
  otpPepper: z.string().min(32),
  /** HMAC key for upload addresses of the server's own file store (server/files/upload-signature.ts). */
  fileSigningKey: z.string().min(32),
  /** AES-256-GCM key (32 bytes, base64url) for MCP connections' environment variables at rest. */
  mcpEncryptionKey: z.string().min(32),
  /**
   * The LTI tool's RSA private key (PKCS#8 PEM): signs deep-linking answers and service-token assertions;
   * platforms read its public half from /lti/keys, so a new one costs nothing stored.
   */
  ltiToolKey: z.string().min(32),
  /**
   * VAPID private key (a P-256 scalar, 32 bytes base64url) that signs every Web Push request; the public
   * key derived from it is what browsers subscribe with (server/push/vapid.ts).
   */
  vapidPrivateKey: z.string().min(32),
});
export type Secrets = z.infer<typeof secretsSchema>;
export type SecretName = keyof Secrets;

/**
 * For a key, whether data stored now depends on it (server/secret-dependents.ts). Keys not listed protect
 * only short-lived things (a sign-in code, an upload address): a new one costs at most a retry.
 */
export type SecretDependents = Partial<Record<SecretName, () => Promise<boolean>>>;

const NAMES = Object.keys(secretsSchema.shape) as SecretName[];
const randomKey = () => randomBytes(32).toString('base64url');
const rsaKey = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
const newKey = (name: SecretName) => (name === 'ltiToolKey' ? rsaKey() : randomKey());

/** Thrown when the server must not start on these secrets; the message says what to do. */
export class SecretsError extends Error {
  override name = 'SecretsError';
}

export async function loadSecrets(dataDir: string, dependents: SecretDependents = {}): Promise<Secrets> {
  const file = path.join(dataDir, 'secrets.json');
  mkdirSync(dataDir, { recursive: true });
  const stored = readStored(file);
  const missing = NAMES.filter((name) => stored?.[name] === undefined);
  if (stored !== null && missing.length === 0) return secretsSchema.parse(stored);

  for (const name of missing) {
    if (await dependents[name]?.())
      throw new SecretsError(
        `${file} has no ${name}, but stored data is encrypted or signed with it. Restore the file (or the ` +
          `key) from a backup or from another node; a new key would make that data unreadable.`,
      );
  }
  // Keys this version does not know (written by a newer one) are kept as they are.
  const complete: Record<string, unknown> = { ...stored };
  for (const name of missing) complete[name] = newKey(name);
  const secrets = secretsSchema.parse(complete);
  if (stored === null) {
    // First start: another node sharing DATA_DIR may be writing too; whoever links first wins.
    if (!writeFile(file, complete, 'create')) return loadSecrets(dataDir, dependents);
  } else writeFile(file, complete, 'replace');
  return secrets;
}

/** The stored keys, null when there is no file yet; throws (never guesses) when it cannot be read. */
function readStored(file: string): (Partial<Secrets> & Record<string, unknown>) | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SecretsError(`${file} cannot be read (${(err as Error).message}); fix its permissions.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SecretsError(`${file} is not valid JSON. Restore it from a backup; it is left as it is.`);
  }
  const parsed = secretsSchema.partial().loose().safeParse(json);
  if (!parsed.success) {
    const what = parsed.error.issues.map((i) => i.path.join('.') || i.message).join(', ');
    throw new SecretsError(`${file} has malformed keys (${what}). Restore it from a backup.`);
  }
  return parsed.data;
}

/**
 * Writes the whole file through a temporary file in the same directory (so the rename is atomic), synced
 * to disk before it takes the real name. `create` never replaces an existing file and says false if one
 * appeared meanwhile.
 */
function writeFile(file: string, secrets: Record<string, unknown>, mode: 'create' | 'replace'): boolean {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(secrets, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    if (mode === 'replace') renameSync(temp, file);
    else {
      try {
        linkSync(temp, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw err;
      }
    }
  } finally {
    rmSync(temp, { force: true });
  }
  syncDirectory(path.dirname(file));
  return true;
}

/** The new name is durable only once the directory is synced (not supported on every platform). */
function syncDirectory(dir: string) {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Windows cannot open a directory; the rename itself is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
