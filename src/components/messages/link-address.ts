// What the composer accepts as a link address: web and mail addresses only (a `javascript:` link
// would be stripped by the server's sanitizer anyway; saying so here beats a link that vanishes).
export type LinkAddress = { href: string } | { error: string };

const ALLOWED = new Set(['http:', 'https:', 'mailto:']);

export function parseLinkAddress(input: string): LinkAddress {
  const text = input.trim();
  if (!text) return { error: 'Enter a link address' };
  if (/\s/.test(text)) return { error: 'A link address cannot contain spaces' };
  // "example.com/page" is what people type; "someone@example.com" is an e-mail address.
  const typedScheme = /^[a-z][a-z0-9+.-]*:/i.test(text);
  const withScheme = typedScheme
    ? text
    : /^[^@/]+@[^@/]+\.[^@/]+$/.test(text)
      ? `mailto:${text}`
      : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { error: 'That is not a valid link address' };
  }
  if (!ALLOWED.has(url.protocol)) return { error: 'Only web (http, https) and e-mail links are allowed' };
  // A bare word ("notes") is a typo more often than an intranet host; typed with http:// it is kept.
  if (!typedScheme && url.protocol !== 'mailto:' && !url.hostname.includes('.'))
    return { error: 'That is not a valid link address' };
  return { href: url.protocol === 'mailto:' ? withScheme : url.href };
}
