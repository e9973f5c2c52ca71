// The server's VAPID identity (RFC 8292): the private key is one of the server secrets, the public key is
// derived from it, so nothing else needs keeping and every node sharing secrets.json signs alike.
import { createECDH } from 'node:crypto';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const cache = new Map<string, VapidKeys>();

export function vapidKeys(privateKey: string): VapidKeys {
  let keys = cache.get(privateKey);
  if (!keys) {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    keys = { privateKey, publicKey: ecdh.getPublicKey('base64url') };
    cache.set(privateKey, keys);
  }
  return keys;
}
