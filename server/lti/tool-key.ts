// The tool's own signing key (an RSA key kept in secrets.json): it signs deep-linking answers and the
// assertions that buy service tokens, and its public half is the key set platforms fetch from /lti/keys.
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { exportJWK, type JWK } from 'jose';

export interface ToolKey {
  privateKey: KeyObject;
  kid: string;
  publicJwk: JWK;
}

const cache = new WeakMap<object, Promise<ToolKey>>();

async function load(pem: string): Promise<ToolKey> {
  const privateKey = createPrivateKey(pem);
  const jwk = await exportJWK(createPublicKey(privateKey));
  // The key id is a digest of the public key, so every node sharing secrets.json names it alike.
  const kid = createHash('sha256').update(`${jwk.n}.${jwk.e}`).digest('base64url').slice(0, 16);
  return { privateKey, kid, publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' } };
}

/** The tool key of these secrets (parsed once per secrets object). */
export function toolKey(secrets: { ltiToolKey: string }): Promise<ToolKey> {
  let key = cache.get(secrets);
  if (!key) {
    key = load(secrets.ltiToolKey);
    cache.set(secrets, key);
  }
  return key;
}
