// A knowledge source read from a web address: the server fetches the page itself (http and https only, at
// most 5 redirects, an overall time limit, a byte limit counted while streaming so a huge or endless body
// is never buffered), lets the media type choose how to extract its text, and names it after the page's
// <title>. Loopback and private-network addresses are refused unless the operator allows them, checked on
// every address a host name resolves to (so DNS cannot point an allowed name at a refused address).
import dns from 'node:dns';
import http, { type IncomingMessage, STATUS_CODES } from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { badRequest } from '../errors.ts';
import {
  type DocumentKind,
  decodeText,
  documentKind,
  extractKindText,
  htmlTitle,
  htmlToText,
  SUPPORTED_DOCUMENTS,
} from './extract.ts';

export const MAX_REDIRECTS = 5;

export interface UrlFetchOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Fetch from loopback and private-network addresses too (KNOWLEDGE_URL_ALLOW_PRIVATE). */
  allowPrivate: boolean;
}

/** Why a page could not be read, in words for the admin who added it (the source's 'failed' reason). */
export class UrlFetchError extends Error {}

// Never fetched: addresses that are not a host on a network (unspecified, multicast, reserved) and
// link-local ones, where cloud metadata services answer.
const neverFetched = new BlockList();
neverFetched.addSubnet('0.0.0.0', 8, 'ipv4');
neverFetched.addSubnet('169.254.0.0', 16, 'ipv4');
neverFetched.addSubnet('224.0.0.0', 4, 'ipv4');
neverFetched.addSubnet('240.0.0.0', 4, 'ipv4');
neverFetched.addAddress('::', 'ipv6');
neverFetched.addSubnet('fe80::', 10, 'ipv6');
neverFetched.addSubnet('ff00::', 8, 'ipv6');

// Fetched only when the operator allows private addresses: loopback, private networks, shared address
// space (carrier NAT), benchmarking, unique local IPv6.
const privateNetworks = new BlockList();
privateNetworks.addSubnet('127.0.0.0', 8, 'ipv4');
privateNetworks.addSubnet('10.0.0.0', 8, 'ipv4');
privateNetworks.addSubnet('172.16.0.0', 12, 'ipv4');
privateNetworks.addSubnet('192.168.0.0', 16, 'ipv4');
privateNetworks.addSubnet('100.64.0.0', 10, 'ipv4');
privateNetworks.addSubnet('192.0.0.0', 24, 'ipv4');
privateNetworks.addSubnet('198.18.0.0', 15, 'ipv4');
privateNetworks.addAddress('::1', 'ipv6');
privateNetworks.addSubnet('fc00::', 7, 'ipv6');

const PRIVATE_REFUSED =
  'This server does not fetch loopback or private-network addresses (an operator can allow them)';

/** Why this IP address may not be fetched; null when it may. */
export function addressRefusal(address: string, allowPrivate: boolean): string | null {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  // BlockList also matches IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) against the IPv4 rules.
  if (neverFetched.check(address, family)) return 'This address cannot be fetched';
  if (!allowPrivate && privateNetworks.check(address, family)) return PRIVATE_REFUSED;
  return null;
}

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');
const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** What can be told about an address before fetching it; the thrown message explains the refusal. */
function refusalBeforeFetch(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'Only http and https addresses can be fetched';
  const host = bareHost(url);
  if (isIP(host)) return addressRefusal(host, allowPrivate);
  if (!allowPrivate && isLocalhostName(host.toLowerCase())) return PRIVATE_REFUSED;
  return null;
}

/** The address to fetch, or a 400 when it can be refused before any request. */
export function checkSourceUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('url: Invalid url');
  }
  const refusal = refusalBeforeFetch(url, allowPrivate);
  if (refusal) throw badRequest(refusal);
  return url;
}

class RefusedAddress extends Error {}

/** dns.lookup that fails the connection when any address of the name is refused. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const refusal = addresses.map((a) => addressRefusal(a.address, allowPrivate)).find((r) => r !== null);
      if (refusal || addresses.length === 0)
        return callback(new RefusedAddress(refusal ?? 'The address has no IP address'), '', 0);
      if (options.all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      return callback(null, first?.address ?? '', first?.family ?? 4);
    });
  };
}

function request(url: URL, options: UrlFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: 'GET',
      // A fresh connection each time: a pooled socket would skip the address check of guardedLookup.
      agent: false,
      lookup: guardedLookup(options.allowPrivate),
      signal,
      headers: {
        accept:
          'text/html, application/xhtml+xml, text/markdown, text/plain, application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, */*;q=0.1',
        'accept-encoding': 'gzip, deflate, br',
        'user-agent': 'Lantern knowledge fetcher',
      },
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** The response body, decompressed, stopping with an error past maxBytes. */
async function readBody(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new UrlFetchError(`The page is larger than ${megabytes(maxBytes)}`);
  const declared = Number(res.headers['content-length']);
  const encoding = (res.headers['content-encoding'] ?? '').toLowerCase();
  if (!encoding && Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw tooLarge();
  }
  let body: Readable = res;
  if (encoding === 'gzip' || encoding === 'x-gzip') body = res.pipe(zlib.createGunzip());
  else if (encoding === 'deflate') body = res.pipe(zlib.createInflate());
  else if (encoding === 'br') body = res.pipe(zlib.createBrotliDecompress());
  else if (encoding && encoding !== 'identity') {
    res.destroy();
    throw new UrlFetchError(`The page is compressed with ${encoding}, which cannot be read`);
  }
  // Decompression errors surface on the decompressor; the response's own errors (time-out) on res.
  if (body !== res) res.on('error', (err) => body.destroy(err));
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const part of body) {
      size += (part as Buffer).length;
      if (size > maxBytes) throw tooLarge();
      parts.push(part as Buffer);
    }
  } finally {
    // Whatever ended the read (done, too large, a decompression error), the connection is not reused.
    res.destroy();
  }
  return Buffer.concat(parts);
}

export interface FetchedPage {
  /** Where the page was found, after redirects. */
  url: URL;
  kind: DocumentKind;
  charset: string | null;
  bytes: Buffer;
}

function kindOfResponse(url: URL, contentType: string): DocumentKind | null {
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  // The media type decides; the file name in the path only when the server gives a generic type.
  if (type && type !== 'application/octet-stream') return documentKind('', type);
  return documentKind(url.pathname.split('/').pop() ?? '', '');
}

const charsetOf = (contentType: string) => /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1] ?? null;

function networkReason(err: unknown, url: URL, options: UrlFetchOptions, signal: AbortSignal): string {
  if (signal.aborted)
    return `The address did not answer within ${Math.round(options.timeoutMs / 100) / 10} seconds`;
  if (err instanceof RefusedAddress) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `The host ${url.hostname} could not be found`;
  if (code === 'ECONNREFUSED') return `The host ${url.host} refused the connection`;
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT'))
    return `The secure connection to ${url.host} failed (${code})`;
  return `The address could not be reached${code ? ` (${code})` : ''}`;
}

/** Fetches the page the address points to (following redirects); UrlFetchError says why it could not. */
export async function fetchPage(start: URL, options: UrlFetchOptions): Promise<FetchedPage> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url = start;
  for (let redirects = 0; ; redirects++) {
    let res: IncomingMessage;
    try {
      res = await request(url, options, signal);
    } catch (err) {
      throw new UrlFetchError(networkReason(err, url, options, signal));
    }
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location) {
      res.destroy();
      if (redirects >= MAX_REDIRECTS)
        throw new UrlFetchError(`The address redirected more than ${MAX_REDIRECTS} times`);
      try {
        url = new URL(location, url);
      } catch {
        throw new UrlFetchError('The address redirected to an invalid address');
      }
      const refusal = refusalBeforeFetch(url, options.allowPrivate);
      if (refusal) throw new UrlFetchError(`It redirected to ${url.href}: ${refusal}`);
      continue;
    }
    if (status < 200 || status >= 300) {
      res.destroy();
      throw new UrlFetchError(`The address answered ${status} ${STATUS_CODES[status] ?? ''}`.trim());
    }
    const contentType = res.headers['content-type'] ?? '';
    const kind = kindOfResponse(url, contentType);
    if (!kind) {
      res.destroy();
      const type = contentType.split(';')[0]?.trim() || 'unknown';
      throw new UrlFetchError(`The page's type (${type}) cannot be read: only ${SUPPORTED_DOCUMENTS}`);
    }
    try {
      const bytes = await readBody(res, options.maxBytes);
      return { url, kind, charset: charsetOf(contentType), bytes };
    } catch (err) {
      if (err instanceof UrlFetchError) throw err;
      throw new UrlFetchError(networkReason(err, url, options, signal));
    }
  }
}

/** A charset declared inside an HTML page (<meta charset> or http-equiv), when the header gave none. */
function metaCharset(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 2048).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1] ?? null;
}

export interface UrlDocument {
  /** The page's <title>, else the address without its scheme. */
  title: string;
  text: string;
}

export async function readUrlDocument(url: URL, options: UrlFetchOptions): Promise<UrlDocument> {
  const page = await fetchPage(url, options);
  const fallbackTitle = `${page.url.host}${page.url.pathname}`.replace(/\/$/, '');
  if (page.kind === 'html') {
    const html = decodeText(page.bytes, page.charset ?? metaCharset(page.bytes));
    const title = htmlTitle(html) ?? fallbackTitle;
    return { title: title.slice(0, 200), text: htmlToText(html) };
  }
  return {
    title: fallbackTitle.slice(0, 200),
    text: await extractKindText(page.bytes, page.kind, page.charset),
  };
}
