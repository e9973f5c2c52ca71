// What a web page says about itself, read from its HTML: OpenGraph, then Twitter card, then <title> and
// the meta description. Every byte is someone else's: the scan is one linear pass (indexOf, never a
// pattern that backtracks over the page), tags longer than a few KB are skipped, entities are decoded,
// control characters dropped, lengths capped, and the picture's address is resolved against the page and
// kept only when it is http(s).

export interface PageCard {
  title: string | null;
  description: string | null;
  siteName: string | null;
  /** The picture's absolute address on the linked site; never sent to a client (served through us). */
  imageSource: string | null;
}

const TITLE_MAX = 300;
const DESCRIPTION_MAX = 500;
const SITE_NAME_MAX = 100;
const IMAGE_URL_MAX = 2048;
/** A <meta> tag longer than this is not one a site writes for previews. */
const TAG_MAX = 4 * 1024;
/** <meta> tags read before giving up: a real page has dozens. */
const META_MAX = 500;

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  middot: '·',
  bull: '•',
  copy: '©',
  reg: '®',
  trade: '™',
};

/** HTML character references decoded (numeric ones and the common named ones); others left as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      // Surrogates, NUL and anything past Unicode are not characters.
      if (!code || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
      return String.fromCodePoint(code);
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** Decoded, without control characters or leftover tags, whitespace collapsed, at most `max` characters. */
function cleanText(raw: string | undefined, max: number): string | null {
  if (!raw) return null;
  const text = decodeEntities(raw.slice(0, max * 4))
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/<[^<>]{0,200}>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return null;
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** The attributes of one tag's text (`<meta property="og:title" content="…">`), names lower-cased. */
function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  // An unclosed quote runs to the tag's end (`"?`): nothing is scanned twice.
  const pattern = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>"']+)))?/g;
  // Past the tag name.
  pattern.lastIndex = tag.search(/\s/) === -1 ? tag.length : tag.search(/\s/);
  for (let match = pattern.exec(tag); match; match = pattern.exec(tag)) {
    const name = (match[1] ?? '').toLowerCase();
    if (!found.has(name)) found.set(name, match[2] ?? match[3] ?? match[4] ?? '');
  }
  return found;
}

/** Where the tag starting at `start` ends (a '>' outside quotes), within TAG_MAX characters; else -1. */
function tagEnd(html: string, start: number): number {
  let quote = '';
  const stop = Math.min(html.length, start + TAG_MAX);
  for (let i = start; i < stop; i++) {
    const c = html[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

/** Every <meta> tag's property or name (lower-cased) with its content; the first of each wins. */
function metaTags(html: string): Map<string, string> {
  const meta = new Map<string, string>();
  const lower = html.toLowerCase();
  let seen = 0;
  for (let at = lower.indexOf('<meta'); at !== -1 && seen < META_MAX; at = lower.indexOf('<meta', at + 5)) {
    seen++;
    const end = tagEnd(html, at);
    if (end === -1) continue;
    const attrs = attributes(html.slice(at + 1, end));
    const key = (attrs.get('property') ?? attrs.get('name') ?? attrs.get('itemprop') ?? '').toLowerCase();
    const content = attrs.get('content');
    if (key && content !== undefined && !meta.has(key)) meta.set(key, content);
  }
  return meta;
}

/** The raw text of the first <title>…</title>, found with two indexOf calls. */
function titleText(html: string): string | undefined {
  const lower = html.toLowerCase();
  let open = lower.indexOf('<title');
  // "<titles>" or "<title-bar>" are not titles.
  while (open !== -1 && !/[\s>/]/.test(lower[open + 6] ?? '')) open = lower.indexOf('<title', open + 6);
  if (open === -1) return undefined;
  const start = lower.indexOf('>', open);
  if (start === -1) return undefined;
  const close = lower.indexOf('</title', start);
  return close === -1 ? undefined : html.slice(start + 1, Math.min(close, start + 1 + TITLE_MAX * 8));
}

/** An http(s) address, resolved against the page, or null. */
function absoluteImage(raw: string | undefined, page: URL): string | null {
  const text = raw ? decodeEntities(raw).trim() : '';
  if (!text || text.length > IMAGE_URL_MAX) return null;
  try {
    const url = new URL(text, page);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}

export function pageCard(html: string, page: URL): PageCard {
  const meta = metaTags(html);
  const first = (...keys: string[]) => keys.map((k) => meta.get(k)).find((v) => v?.trim());
  return {
    title: cleanText(first('og:title', 'twitter:title') ?? titleText(html), TITLE_MAX),
    description: cleanText(first('og:description', 'twitter:description', 'description'), DESCRIPTION_MAX),
    siteName: cleanText(first('og:site_name', 'application-name'), SITE_NAME_MAX),
    imageSource: absoluteImage(
      first('og:image:secure_url', 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src'),
      page,
    ),
  };
}

/** A charset a page declares near its start (<meta charset> or http-equiv), when the header gave none. */
export function declaredCharset(head: Buffer): string | null {
  const text = head.subarray(0, 2048).toString('latin1');
  return /<meta[^>]{0,200}charset\s*=\s*["']?([\w-]{1,40})/i.exec(text)?.[1] ?? null;
}

/** Bytes as text in the given charset; UTF-8 when none is given or the label is unknown. */
export function decodePage(bytes: Buffer, charset: string | null): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
