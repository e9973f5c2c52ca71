// AWS Signature Version 4 query-string presigning (the "Authenticating Requests: Using Query Parameters"
// scheme), hand-written to avoid the AWS SDK: one HMAC chain, works with any S3-compatible store.
import { createHash, createHmac } from 'node:crypto';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export interface PresignInput {
  method: 'GET' | 'PUT' | 'DELETE' | 'HEAD';
  /** The object's full address, e.g. https://bucket.s3.amazonaws.com/key or <endpoint>/<bucket>/<key>. */
  url: string;
  expiresInSeconds: number;
  now: Date;
  /** Headers the request must carry with exactly these values (names lower-case); host is always signed. */
  headers?: Record<string, string>;
  /** Extra query parameters, e.g. response-content-disposition for GET. */
  query?: Record<string, string>;
}

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters, '/' kept in paths. */
export function uriEncode(value: string, keepSlash = false): string {
  return Array.from(new TextEncoder().encode(value), (byte) => {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) return c;
    return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

/** YYYYMMDD'T'HHMMSS'Z' */
const amzDate = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** The presigned address; its X-Amz-Signature is the signature. */
export function presignS3(credentials: S3Credentials, input: PresignInput): string {
  const url = new URL(input.url);
  const date = amzDate(input.now);
  const day = date.slice(0, 8);
  const scope = `${day}/${credentials.region}/s3/aws4_request`;
  const headers: Record<string, string> = { host: url.host, ...input.headers };
  const headerNames = Object.keys(headers)
    .map((h) => h.toLowerCase())
    .sort();
  const lowerHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const signedHeaders = headerNames.join(';');

  const query: Record<string, string> = {
    ...input.query,
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `${credentials.accessKeyId}/${scope}`,
    'X-Amz-Date': date,
    'X-Amz-Expires': String(input.expiresInSeconds),
    'X-Amz-SignedHeaders': signedHeaders,
  };
  const canonicalQuery = Object.keys(query)
    .sort()
    .map((k) => `${uriEncode(k)}=${uriEncode(query[k] ?? '')}`)
    .join('&');
  const canonicalPath = uriEncode(decodeURIComponent(url.pathname), true);
  const canonicalHeaders = headerNames.map((h) => `${h}:${String(lowerHeaders[h]).trim()}\n`).join('');
  const canonicalRequest = [
    input.method,
    canonicalPath,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), credentials.region), 's3'),
    'aws4_request',
  );
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return `${url.origin}${canonicalPath}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}
