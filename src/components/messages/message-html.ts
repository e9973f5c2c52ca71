// Message HTML on the client: rendering through DOMPurify (spec issue item 12), with mention chips
// (<span data-type="mention" data-id class="mention">), and plain-text conversions for previews.
import DOMPurify from 'dompurify';

/** Sanitised HTML for dangerouslySetInnerHTML; links open in a new tab and never leak the opener. */
export function renderMessageHtml(html: string): string {
  return DOMPurify.sanitize(html, {
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
  });
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
