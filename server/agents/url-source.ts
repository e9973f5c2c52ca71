// A knowledge source read from a web address: the server fetches the page itself (http and https only, at
// most 5 redirects, an overall time limit, a byte limit counted while streaming so a huge or endless body
// is never buffered), lets the media type choose how to extract its text, and names it after the page's
// <title>. Every request goes through the guarded outbound path (server/outbound/): loopback and private
// addresses are refused unless the operator allows them, on every redirect and every resolved address.
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import { badRequest } from '../errors.ts';
import { RefusedAddress, urlRefusal } from '../outbound/address-guard.ts';
import { outboundRequest } from '../outbound/outbound-request.ts';
import { followRedirects, RedirectError, type RedirectProblem } from '../outbound/redirects.ts';
import { contentEncoding, decodedBody, UnreadableEncoding } from '../outbound/response-body.ts';
import { type DocumentKind, decodeText, documentKind, htmlTitle, SUPPORTED_DOCUMENTS } from './extract.ts';

export const MAX_REDIRECTS = 5;

export interface UrlFetchOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Fetch from loopback and private-network addresses too (KNOWLEDGE_URL_ALLOW_PRIVATE). */
  allowPrivate: boolean;
}

/** Why a page could not be read, in words for the admin who added it (the source's 'failed' reason). */
export class UrlFetchError extends Error {}

/** The address to fetch, or a 400 when it can be refused before any request. */
export function checkSourceUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('url: Invalid url');
  }
  const refusal = urlRefusal(url, allowPrivate);
  if (refusal) throw badRequest(refusal);
  return url;
}

function request(url: URL, options: UrlFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  return outboundRequest(
    url,
    {
      signal,
      headers: {
        accept:
          'text/html, application/xhtml+xml, text/markdown, text/plain, application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, */*;q=0.1',
        'accept-encoding': 'gzip, deflate, br',
        'user-agent': 'Lantern knowledge fetcher',
      },
    },
    { allowPrivate: options.allowPrivate },
  );
}

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** The response body, decompressed, stopping with an error past maxBytes. */
async function readBody(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new UrlFetchError(`The page is larger than ${megabytes(maxBytes)}`);
  const declared = Number(res.headers['content-length']);
  if (!contentEncoding(res) && Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw tooLarge();
  }
  let body: Readable;
  try {
    body = decodedBody(res);
  } catch (err) {
    if (!(err instanceof UnreadableEncoding)) throw err;
    throw new UrlFetchError(`The page is compressed with ${err.encoding}, which cannot be read`);
  }
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

function redirectReason(problem: RedirectProblem): string {
  if (problem.kind === 'too-many') return `The address redirected more than ${problem.max} times`;
  if (problem.kind === 'invalid') return 'The address redirected to an invalid address';
  return `It redirected to ${problem.url.href}: ${problem.refusal}`;
}

/** Fetches the page the address points to (following redirects); UrlFetchError says why it could not. */
export async function fetchPage(start: URL, options: UrlFetchOptions): Promise<FetchedPage> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let hop: { url: URL; res: IncomingMessage };
  try {
    hop = await followRedirects(
      start,
      async (url) => {
        try {
          return await request(url, options, signal);
        } catch (err) {
          throw new UrlFetchError(networkReason(err, url, options, signal));
        }
      },
      { allowPrivate: options.allowPrivate, max: MAX_REDIRECTS },
    );
  } catch (err) {
    if (err instanceof RedirectError) throw new UrlFetchError(redirectReason(err.problem));
    throw err;
  }
  const { url, res } = hop;
  const status = res.statusCode ?? 0;
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

/** Reads a fetched document's text off the main thread (knowledge.ts passes the worker-thread reader). */
export type TextExtractor = (bytes: Buffer, kind: DocumentKind, charset: string | null) => Promise<string>;

/** A page's <title> sits in its head: only this much of it is decoded on the main thread to find it. */
const TITLE_SCAN_BYTES = 64 * 1024;

export async function readUrlDocument(
  url: URL,
  options: UrlFetchOptions,
  extract: TextExtractor,
): Promise<UrlDocument> {
  const page = await fetchPage(url, options);
  const fallbackTitle = `${page.url.host}${page.url.pathname}`.replace(/\/$/, '');
  if (page.kind === 'html') {
    const charset = page.charset ?? metaCharset(page.bytes);
    const head = decodeText(page.bytes.subarray(0, TITLE_SCAN_BYTES), charset);
    const title = htmlTitle(head) ?? fallbackTitle;
    return { title: title.slice(0, 200), text: await extract(page.bytes, 'html', charset) };
  }
  return { title: fallbackTitle.slice(0, 200), text: await extract(page.bytes, page.kind, page.charset) };
}
