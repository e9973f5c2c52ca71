// The addresses in a message's text that become links when it is shown (issue 15 item 6): the composer's
// autolink only runs on the key after an address, so one typed last and sent with Enter, or one sent by
// the API, would stay plain. Web addresses with a scheme, "www." ones, bare domains under common
// top-level domains, and e-mail addresses. A small rule set of our own rather than linkifyjs: this runs
// on the first rows' path, where every kilobyte counts (issue 11).

export interface FoundLink {
  start: number;
  end: number;
  href: string;
}

// Bare "name.tld" is a link only under these: "index.html", "Node.js" or "README.md" are not addresses.
const TLDS =
  'com|org|net|edu|gov|mil|int|io|dev|app|ai|co|me|info|biz|xyz|tech|site|online|page|link|cloud|' +
  'uk|us|ca|au|nz|ie|de|fr|nl|be|es|it|pt|ch|at|se|no|dk|fi|pl|cz|eu|jp|cn|kr|in|br|mx|ar|za|ng|ke';

const PATTERN = new RegExp(
  [
    // A scheme or "www.": everything up to a space, a quote or an angle bracket.
    String.raw`\b(?:https?:\/\/|www\.)[^\s<>"]+`,
    // An e-mail address.
    String.raw`\b[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}\b`,
    // A bare domain, with an optional path, query or fragment; not the host of another scheme's address.
    String.raw`(?<![/@.])\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:${TLDS})\b(?![.@-]?[a-z0-9])(?:[/?#][^\s<>"]*)?`,
  ].join('|'),
  'gi',
);

const TRAILING = /[.,;:!?'"*_~]$/;

/** The address without what ends the sentence around it: a full stop, or a bracket it did not open. */
function trimEnd(raw: string): string {
  let text = raw;
  for (;;) {
    if (TRAILING.test(text)) text = text.slice(0, -1);
    else if (text.endsWith(')') && count(text, '(') < count(text, ')')) text = text.slice(0, -1);
    else return text;
  }
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}

function hrefFor(text: string): string | null {
  const withScheme = /^https?:\/\//i.test(text)
    ? text
    : /^[^/?#]*@/.test(text)
      ? `mailto:${text}`
      : `https://${text}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol === 'mailto:') return withScheme;
    return url.hostname.includes('.') ? url.href : null;
  } catch {
    return null;
  }
}

/** Where the addresses in `text` are, and what each links to. */
export function findLinks(text: string): FoundLink[] {
  // Every address has a dot: most messages end here.
  if (!text.includes('.')) return [];
  const found: FoundLink[] = [];
  for (const match of text.matchAll(PATTERN)) {
    const value = trimEnd(match[0]);
    const href = value && hrefFor(value);
    if (href) found.push({ start: match.index, end: match.index + value.length, href });
  }
  return found;
}
