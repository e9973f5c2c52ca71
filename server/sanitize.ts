// Message HTML from the composer, reduced to an allowlist before it is stored: what the client renders
// (through DOMPurify as a second line) can never carry scripts, styles, event handlers or images.
import sanitizeHtml from 'sanitize-html';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    's',
    'strike',
    'del',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'span',
  ],
  allowedAttributes: {
    a: ['href', 'rel', 'target'],
    // Mention chips written by the composer: <span data-type="mention" data-id="…" class="mention">.
    span: ['data-type', 'data-id', 'class'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // Tags whose content is code or layout, not text: drop them with everything inside.
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'noscript',
    'title',
    'head',
    'iframe',
    'object',
    'embed',
    'svg',
    'math',
  ],
  disallowedTagsMode: 'discard',
  transformTags: {
    // Links always open apart from the app and cannot reach back through window.opener.
    a: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...(attribs.href ? { href: attribs.href } : {}),
        rel: 'noopener noreferrer nofollow',
        target: '_blank',
      },
    }),
  },
};

/** The stored form of a message's HTML. */
export function sanitizeMessageHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/**
 * Whether sanitised HTML has nothing a reader would see: only empty paragraphs, breaks and whitespace.
 * A mention chip counts as content even though it may be written without inner text.
 */
export function isBlankHtml(html: string): boolean {
  // A tag's scan stops at the next "<" as well as at ">": with `[^>]*` alone, text of many "<span" without
  // a ">" made every "<" scan to the end (quadratic). Sanitised HTML escapes "<" outside tags, so the
  // result is the same.
  if (/<span[^<>]*data-type=/i.test(html)) return false;
  const text = html
    .replace(/<[^<>]*>/g, '')
    .replace(/&nbsp;|&#160;|\u00a0/g, ' ')
    // Zero-width characters show nothing either: a message of them alone is as empty as one of spaces.
    .replace(/[\u200b-\u200d\u2060\ufeff]|&#8203;|&#x200b;/gi, '')
    .trim();
  return text.length === 0;
}
