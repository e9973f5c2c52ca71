// Where file bytes live: the server's own disk store (default) or an S3-compatible bucket when the S3_*
// settings are given. Both hand out a time-limited address for one PUT of an exact size.
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import { LocalStore } from './local-store.ts';
import { presignS3, type S3Credentials } from './s3-presign.ts';
import { signUpload } from './upload-signature.ts';

/** How long an upload address stays valid. */
export const UPLOAD_TTL_MS = 15 * 60 * 1000;
/** How long a redirect to an S3 download stays valid. */
const DOWNLOAD_TTL_SECONDS = 300;

export interface UploadTicket {
  fileKey: string;
  signature: string;
  uploadUrl: string;
  expiresAt: Date;
}

export interface DownloadHeaders {
  contentType: string;
  contentDisposition: string;
}

export interface FileStore {
  kind: 'local' | 's3';
  signUpload(size: number, contentType: string | undefined, now: Date): UploadTicket;
  /**
   * How many bytes the store holds for a key: null when nothing was uploaded, undefined when the store could
   * not say (an S3 bucket that did not answer), in which case the file stays marked as uploading.
   */
  storedSize(fileKey: string): Promise<number | null | undefined>;
  /** S3 only: a short-lived address to GET the object with these response headers. */
  downloadUrl(fileKey: string, headers: DownloadHeaders, now: Date): string | null;
  remove(fileKey: string): Promise<void>;
  local: LocalStore | null;
}

export const newFileKey = (): string => randomUUID();

export function createFileStore(config: Config, secret: string): FileStore {
  const s3 = s3Settings(config);
  if (s3) return s3Store(s3);
  const local = new LocalStore(config.filesDir);
  return {
    kind: 'local',
    local,
    signUpload(size, _contentType, now) {
      const fileKey = newFileKey();
      const expires = now.getTime() + UPLOAD_TTL_MS;
      const signature = signUpload(secret, { fileKey, size, expires });
      const query = new URLSearchParams({ size: String(size), expires: String(expires), signature });
      return {
        fileKey,
        signature,
        uploadUrl: `/api/files/upload/${fileKey}?${query}`,
        expiresAt: new Date(expires),
      };
    },
    storedSize: (fileKey) => local.size(fileKey),
    downloadUrl: () => null,
    remove: (fileKey) => local.remove(fileKey),
  };
}

interface S3Settings extends S3Credentials {
  endpoint: string;
  bucket: string;
}

function s3Settings(config: Config): S3Settings | null {
  const { S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_REGION } = config;
  if (!S3_ENDPOINT || !S3_BUCKET || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY) return null;
  return {
    endpoint: S3_ENDPOINT.replace(/\/+$/, ''),
    bucket: S3_BUCKET,
    region: S3_REGION,
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
  };
}

function s3Store(s3: S3Settings): FileStore {
  const objectUrl = (fileKey: string) => `${s3.endpoint}/${s3.bucket}/${fileKey}`;
  return {
    kind: 's3',
    local: null,
    signUpload(size, contentType, now) {
      const fileKey = newFileKey();
      const ttl = UPLOAD_TTL_MS / 1000;
      // Content-Length is signed, so the store itself refuses any other size.
      const headers: Record<string, string> = { 'content-length': String(size) };
      if (contentType) headers['content-type'] = contentType;
      const uploadUrl = presignS3(s3, {
        method: 'PUT',
        url: objectUrl(fileKey),
        expiresInSeconds: ttl,
        now,
        headers,
      });
      const signature = new URL(uploadUrl).searchParams.get('X-Amz-Signature') ?? '';
      return { fileKey, signature, uploadUrl, expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS) };
    },
    // A signed HEAD: S3 answers the object's size, or 404 while the browser's PUT has not landed.
    async storedSize(fileKey) {
      const url = presignS3(s3, {
        method: 'HEAD',
        url: objectUrl(fileKey),
        expiresInSeconds: 60,
        now: new Date(),
      });
      try {
        const res = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(10_000) });
        if (res.status === 404) return null;
        const size = Number(res.headers.get('content-length'));
        return res.ok && Number.isSafeInteger(size) ? size : undefined;
      } catch {
        return undefined;
      }
    },
    downloadUrl(fileKey, headers, now) {
      return presignS3(s3, {
        method: 'GET',
        url: objectUrl(fileKey),
        expiresInSeconds: DOWNLOAD_TTL_SECONDS,
        now,
        query: {
          'response-content-type': headers.contentType,
          'response-content-disposition': headers.contentDisposition,
        },
      });
    },
    async remove(fileKey) {
      const url = presignS3(s3, {
        method: 'DELETE',
        url: objectUrl(fileKey),
        expiresInSeconds: 60,
        now: new Date(),
      });
      const res = await fetch(url, { method: 'DELETE' });
      if (!res.ok && res.status !== 404) throw new Error(`S3 delete failed: ${res.status}`);
    },
  };
}
