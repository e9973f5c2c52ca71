// Link previews (decision 0053): the server reads a linked page's head and the picture it names, only
// through the guarded outbound path (server/outbound/), the way URL knowledge sources are fetched: every
// hop's address checked before connecting, redirects followed by hand and checked again, an overall time
// limit, bytes counted while streaming. A page is read from its first HTML_MAX_BYTES only (the head is
// there); anything but HTML is refused; a picture must be PNG, JPEG, GIF, WebP or AVIF by its own bytes.
// Answers, failures too (briefly), are cached per server process, and one address is fetched once at a
// time however many viewers ask.
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import { RefusedAddress } from '../outbound/address-guard.ts';
import { outboundRequest } from '../outbound/outbound-request.ts';
import { followRedirects, RedirectError } from '../outbound/redirects.ts';
import { contentEncoding, decodedBody, UnreadableEncoding } from '../outbound/response-body.ts';
import { ExpiringCache } from './expiring-cache.ts';
import { declaredCharset, decodePage, type PageCard, pageCard } from './page-card.ts';

/** The head of a page is in its first few hundred KB; the rest is never read. */
export const HTML_MAX_BYTES = 512 * 1024;
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const PAGE_TTL_MS = 60 * 60 * 1000;
const FAILURE_TTL_MS = 2 * 60 * 1000;
const USER_AGENT = 'Mozilla/5.0 (compatible; LanternLinkPreview/1.0)';

export interface LinkPreviewOptions {
  /** Loopback and private networks too (LINK_PREVIEW_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  timeoutMs?: number;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface ServedImage {
  /** Decided from the bytes, never from the linked site's header. */
  contentType: string;
  bytes: Buffer;
}

/** A refusal or failure, in words for the person who wrote the link. */
class PreviewFailure extends Error {}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} seconds`;

function networkReason(err: unknown, url: URL, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `The page did not answer within ${seconds(timeoutMs)}`;
  if (err instanceof PreviewFailure || err instanceof RefusedAddress) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `The host ${url.hostname} could not be found`;
  if (code === 'ECONNREFUSED') return `The host ${url.host} refused the connection`;
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT'))
    return `The secure connection to ${url.host} failed`;
  return 'The page could not be reached';
}

/** One GET through the guard, redirects followed (each hop checked again); a 2xx answer or a failure. */
async function guardedGet(
  start: URL,
  accept: string,
  options: LinkPreviewOptions,
  signal: AbortSignal,
): Promise<{ url: URL; res: IncomingMessage }> {
  let hop: { url: URL; res: IncomingMessage };
  try {
    hop = await followRedirects(
      start,
      (url) =>
        outboundRequest(
          url,
          { signal, headers: { accept, 'accept-encoding': 'gzip, deflate, br', 'user-agent': USER_AGENT } },
          { allowPrivate: options.allowPrivate },
        ),
      { allowPrivate: options.allowPrivate, max: MAX_REDIRECTS },
    );
  } catch (err) {
    if (!(err instanceof RedirectError)) throw err;
    const { problem } = err;
    if (problem.kind === 'too-many')
      throw new PreviewFailure(`The page redirected more than ${problem.max} times`);
    if (problem.kind === 'invalid') throw new PreviewFailure('The page redirected to an invalid address');
    throw new PreviewFailure(`The page redirected to an address that cannot be fetched: ${problem.refusal}`);
  }
  const status = hop.res.statusCode ?? 0;
  if (status < 200 || status >= 300) {
    hop.res.destroy();
    throw new PreviewFailure(`The page answered ${status} ${STATUS_CODES[status] ?? ''}`.trim());
  }
  return hop;
}

/**
 * At most `maxBytes` of the body, decompressed. `cut`: stop there and keep what was read (a page's head);
 * otherwise a larger body is a failure (a picture cut short is no picture).
 */
async function readCapped(res: IncomingMessage, maxBytes: number, cut: boolean): Promise<Buffer> {
  const encoding = contentEncoding(res);
  const declared = Number(res.headers['content-length']);
  const tooLarge = () => new PreviewFailure(`The picture is larger than ${maxBytes / (1024 * 1024)} MB`);
  if (!cut && !encoding && Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw tooLarge();
  }
  let body: Readable;
  try {
    body = decodedBody(res);
  } catch (err) {
    if (!(err instanceof UnreadableEncoding)) throw err;
    throw new PreviewFailure(
      `The page is compressed with ${err.encoding.slice(0, 20)}, which cannot be read`,
    );
  }
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const part = chunk as Buffer;
      if (size + part.length > maxBytes) {
        if (!cut) throw tooLarge();
        parts.push(part.subarray(0, maxBytes - size));
        size = maxBytes;
        break;
      }
      parts.push(part);
      size += part.length;
    }
  } catch (err) {
    // A decompression error after the head was read still leaves a usable head.
    if (!cut || size === 0 || err instanceof PreviewFailure) throw err;
  } finally {
    // Whatever ended the read, the connection is not reused and the rest is never downloaded.
    res.destroy();
    if (body !== res) body.destroy();
  }
  return Buffer.concat(parts);
}

const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
const charsetOf = (header: string) => /;\s*charset\s*=\s*"?([\w-]{1,40})/i.exec(header)?.[1] ?? null;

/** The picture's real type from its first bytes; null for anything else (SVG, HTML, a script...). */
export function imageTypeOf(bytes: Buffer): string | null {
  const ascii = (from: number, to: number) => bytes.subarray(from, to).toString('latin1');
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a)
    return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(8, 12))) return 'image/avif';
  return null;
}

export interface LinkPreviews {
  /** The page's card (cached), or why there is none. */
  page(url: URL): Promise<Outcome<PageCard>>;
  /** The picture at this address (cached), or why it cannot be shown. */
  image(source: string): Promise<Outcome<ServedImage>>;
}

export function createLinkPreviews(options: LinkPreviewOptions): LinkPreviews {
  const timeoutMs = options.timeoutMs ?? 5000;
  const pages = new ExpiringCache<Outcome<PageCard>>({ maxEntries: 2000 });
  const images = new ExpiringCache<Outcome<ServedImage>>({ maxEntries: 300, maxSize: 32 * 1024 * 1024 });
  const running = new Map<string, Promise<unknown>>();

  /** One fetch per key at a time; its outcome cached, a failure for less long. */
  function once<T>(
    cache: ExpiringCache<Outcome<T>>,
    key: string,
    load: () => Promise<T>,
    sizeOf: (value: T) => number,
  ): Promise<Outcome<T>> {
    const cached = cache.get(key);
    if (cached) return Promise.resolve(cached);
    const inflight = running.get(key) as Promise<Outcome<T>> | undefined;
    if (inflight) return inflight;
    const work = load()
      .then((value): Outcome<T> => ({ ok: true, value }))
      .catch((err: unknown): Outcome<T> => ({ ok: false, reason: (err as Error).message }))
      .then((outcome) => {
        if (outcome.ok) cache.set(key, outcome, PAGE_TTL_MS, sizeOf(outcome.value));
        else cache.set(key, outcome, FAILURE_TTL_MS);
        return outcome;
      })
      .finally(() => running.delete(key));
    running.set(key, work);
    return work;
  }

  async function withTimeout<T>(url: URL, read: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return await read(signal);
    } catch (err) {
      throw new PreviewFailure(networkReason(err, url, signal, timeoutMs));
    }
  }

  const readPage = (start: URL) =>
    withTimeout(start, async (signal) => {
      const { url, res } = await guardedGet(start, 'text/html, application/xhtml+xml;q=0.9', options, signal);
      const header = res.headers['content-type'] ?? '';
      const type = mediaType(header);
      if (type !== 'text/html' && type !== 'application/xhtml+xml') {
        res.destroy();
        throw new PreviewFailure(`The address is not a web page (${type.slice(0, 60) || 'no type given'})`);
      }
      const bytes = await readCapped(res, HTML_MAX_BYTES, true);
      const html = decodePage(bytes, charsetOf(header) ?? declaredCharset(bytes));
      const card = pageCard(html, url);
      if (!card.title && !card.description && !card.imageSource)
        throw new PreviewFailure('The page has nothing to show in a preview');
      return card;
    });

  const readImage = (source: string) => {
    const start = new URL(source);
    return withTimeout(start, async (signal) => {
      const { res } = await guardedGet(
        start,
        'image/avif, image/webp, image/png, image/jpeg, image/gif',
        options,
        signal,
      );
      if (!mediaType(res.headers['content-type']).startsWith('image/')) {
        res.destroy();
        throw new PreviewFailure('The page’s picture is not an image');
      }
      const bytes = await readCapped(res, IMAGE_MAX_BYTES, false);
      const contentType = imageTypeOf(bytes);
      if (!contentType)
        throw new PreviewFailure('The page’s picture is not a PNG, JPEG, GIF, WebP or AVIF image');
      return { contentType, bytes };
    });
  };

  return {
    page: (url) =>
      once(
        pages,
        `page:${url.href}`,
        () => readPage(url),
        () => 0,
      ),
    image: (source) =>
      once(
        images,
        `image:${source}`,
        () => readImage(source),
        (i) => i.bytes.length,
      ),
  };
}
