// Message HTML on the client: rendering through DOMPurify (spec issue item 12), with mention chips
// (<span data-type="mention" data-id class="mention">), and plain-text conversions for previews.
import DOMPurify from 'dompurify';
import { findLinks } from './link-finder.ts';

/**
 * Sanitised HTML for the message body; links (written or found in the text) open in a new tab and never
 * leak the opener.
 */
export function renderMessageHtml(html: string): string {
  if (isPlainParagraphs(html)) return html;
  const body = DOMPurify.sanitize(html, {
    RETURN_DOM: true,
    ALLOWED_TAGS: [
      'p',
      'br',
      'strong',
      'b',
      'em',
      'i',
      'u',
      's',
      'code',
      'pre',
      'blockquote',
      'ul',
      'ol',
      'li',
      'a',
      'span',
    ],
    ALLOWED_ATTR: ['href', 'title', 'data-type', 'data-id', 'class'],
  }) as HTMLElement; // RETURN_DOM hands back the <body> the markup was parsed into
  linkAddresses(body);
  return body.innerHTML;
}

/** Paragraphs of text with no tag, attribute, entity or address: most messages. */
const PLAIN_PARAGRAPHS = /^(?:<p>[^<>&]*<\/p>)+$/;

/**
 * True when `html` is already what sanitising it would give: nothing but <p> elements holding text with
 * no address to link. Such a message skips DOMPurify's parse, a large part of rendering a new row (the
 * pending row of Enter included); anything else takes the whole path.
 */
export function isPlainParagraphs(html: string): boolean {
  // Addresses are looked for in the paragraphs' text, as linkAddresses does, not across the tags.
  return PLAIN_PARAGRAPHS.test(html) && findLinks(html.replace(/<\/?p>/g, '\n')).length === 0;
}

/** Every address in the text becomes a link (issue 15 item 6), except in code and inside links and chips. */
function linkAddresses(root: HTMLElement): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest('a, code, pre, .mention')) texts.push(node as Text);
  }
  for (const text of texts) {
    const links = findLinks(text.data);
    if (links.length === 0) continue;
    const parts = document.createDocumentFragment();
    let at = 0;
    for (const link of links) {
      parts.append(text.data.slice(at, link.start));
      const a = document.createElement('a');
      a.href = link.href;
      a.textContent = text.data.slice(link.start, link.end);
      a.target = '_blank';
      a.rel = 'noopener noreferrer nofollow';
      parts.append(a);
      at = link.end;
    }
    parts.append(text.data.slice(at));
    text.replaceWith(parts);
  }
}

if (typeof window !== 'undefined') {
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    // Only the mention chip's class survives: another person's markup never borrows the app's styles.
    if (node.hasAttribute('class') && node.getAttribute('class') !== 'mention') node.removeAttribute('class');
    if (node.tagName === 'A') {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  });
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Plain text → composer HTML: every line a paragraph, so blank lines survive the round trip. */
export function textToHtml(text: string): string {
  if (!text.trim()) return '';
  return text
    .split('\n')
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('');
}

/** Composer HTML (from a draft) → the textarea's plain text. */
export function htmlToText(html: string): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const blocks = doc.body.querySelectorAll('p, li, pre, blockquote');
  if (blocks.length === 0) return doc.body.textContent ?? '';
  return Array.from(blocks, (b) => b.textContent ?? '').join('\n');
}

/** A one-line preview of message or draft HTML. */
export function htmlPreview(html: string): string {
  return htmlToText(html).replace(/\s+/g, ' ').trim();
}
