// Message HTML on the client: rendering through DOMPurify (spec issue item 12), with mention chips
// (<span data-type="mention" data-id class="mention">), and plain-text conversions for previews.
// DOMPurify itself (message-sanitizer.ts) loads with the first message that needs it: most messages are
// plain paragraphs and never do, so a channel's first rows do not wait for it (decision 0067).
import { deferredModule } from '../../app/deferred-module.ts';
import { findLinks } from './link-finder.ts';

/** DOMPurify with the message rules; `load()` it for a message that needs it. */
export const messageSanitizer = deferredModule(() => import('./message-sanitizer.ts'));

/** Loads the sanitiser; a load that fails is said in the console and tried again by the next caller. */
export function loadSanitizer(): void {
  messageSanitizer
    .load()
    .catch((error: unknown) => console.warn('The message sanitiser could not be loaded', error));
}

/**
 * Sanitised HTML for the message body; links (written or found in the text) open in a new tab and never
 * leak the opener. Null while DOMPurify is still loading for a message that needs it (`loadSanitizer`).
 */
export function renderMessageHtml(html: string): string | null {
  if (isPlainParagraphs(html)) return html;
  return messageSanitizer.current()?.sanitizeMessageHtml(html) ?? null;
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

/**
 * The paragraphs' texts of a message that `isPlainParagraphs`: drawn as elements with that text, they
 * skip the HTML parser that setting the markup runs (about 2 ms a row at 4× on a phone's CPU).
 */
export function plainParagraphTexts(html: string): string[] | null {
  if (!isPlainParagraphs(html)) return null;
  return html.slice('<p>'.length, -'</p>'.length).split('</p><p>');
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
