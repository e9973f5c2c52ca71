// Which Firebase project this server pushes through, and as whom (decision 0046): a service account's JSON
// key file, or its three fields from the environment. Read once; a broken setting stops the start with a
// sentence rather than failing every push later.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Config } from '../config.ts';

export interface FcmCredentials {
  projectId: string;
  clientEmail: string;
  privateKey: KeyObject;
  /** The key's id, named in the JWT header so Google picks the right public key. */
  privateKeyId?: string;
}

type FcmSettings = Pick<
  Config,
  'FCM_SERVICE_ACCOUNT_FILE' | 'FCM_PROJECT_ID' | 'FCM_CLIENT_EMAIL' | 'FCM_PRIVATE_KEY'
>;

const cache = new Map<string, FcmCredentials | null>();

function fromServiceAccount(file: string): FcmSettings & { privateKeyId?: string } {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`FCM_SERVICE_ACCOUNT_FILE could not be read as JSON: ${(err as Error).message}`);
  }
  const text = (k: string) => (typeof json[k] === 'string' ? (json[k] as string) : undefined);
  return {
    FCM_PROJECT_ID: text('project_id'),
    FCM_CLIENT_EMAIL: text('client_email'),
    FCM_PRIVATE_KEY: text('private_key'),
    ...(text('private_key_id') ? { privateKeyId: text('private_key_id') } : {}),
  };
}

/** The configured credentials, or null when Firebase messaging is not configured. Throws on a broken setting. */
export function fcmCredentials(config: FcmSettings): FcmCredentials | null {
  const key = JSON.stringify([
    config.FCM_SERVICE_ACCOUNT_FILE,
    config.FCM_PROJECT_ID,
    config.FCM_CLIENT_EMAIL,
    config.FCM_PRIVATE_KEY,
  ]);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const fields = config.FCM_SERVICE_ACCOUNT_FILE
    ? fromServiceAccount(config.FCM_SERVICE_ACCOUNT_FILE)
    : config;
  const { FCM_PROJECT_ID: projectId, FCM_CLIENT_EMAIL: clientEmail, FCM_PRIVATE_KEY: pem } = fields;
  let result: FcmCredentials | null = null;
  if (projectId || clientEmail || pem) {
    if (!projectId || !clientEmail || !pem)
      throw new Error(
        'Firebase messaging needs a project id, a client e-mail and a private key (FCM_SERVICE_ACCOUNT_FILE, or FCM_PROJECT_ID, FCM_CLIENT_EMAIL and FCM_PRIVATE_KEY)',
      );
    // The project id goes into the send URL's path.
    if (!/^[a-z0-9-]{1,64}$/i.test(projectId))
      throw new Error('The Firebase project id may hold only letters, digits and dashes');
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey(pem.replace(/\\n/g, '\n'));
    } catch {
      throw new Error('The Firebase private key is not a PEM private key');
    }
    if (privateKey.asymmetricKeyType !== 'rsa')
      throw new Error('The Firebase private key must be an RSA key (service accounts sign with RS256)');
    const privateKeyId = 'privateKeyId' in fields ? (fields.privateKeyId as string | undefined) : undefined;
    result = { projectId, clientEmail, privateKey, ...(privateKeyId ? { privateKeyId } : {}) };
  }
  cache.set(key, result);
  return result;
}
