// Signed upload addresses for the server's own file store: an HMAC over key, size and expiry with a key
// from DATA_DIR/secrets.json, so the PUT needs no session and cannot be reused for another key or size.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface UploadGrant {
  fileKey: string;
  size: number;
  /** Unix milliseconds. */
  expires: number;
}

export function signUpload(secret: string, grant: UploadGrant): string {
  return createHmac('sha256', secret)
    .update(`${grant.fileKey}\n${grant.size}\n${grant.expires}`)
    .digest('base64url');
}

/** Whether the signature matches the grant; expiry is checked by the caller (it needs the clock). */
export function verifyUpload(secret: string, grant: UploadGrant, signature: string): boolean {
  const expected = Buffer.from(signUpload(secret, grant));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
