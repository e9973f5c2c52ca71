// DOMPurify with the message rules (spec issue item 12): the tags a message may hold, mention chips
// (<span data-type="mention" data-id class="mention">) and links that open in a new tab. Its own chunk,
// loaded by message-html.ts with the first message that is more than plain paragraphs.
import DOMPurify from 'dompurify';
import { findLinks } from './link-finder.ts';

const ALLOWED_TAGS = [
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
];
const ALLOWED_ATTR = ['href', 'title', 'data-type', 'data-id', 'class'];

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  // Only the mention chip's class survives: another person's markup never borrows the app's styles.
  if (node.hasAttribute('class') && node.getAttribute('class') !== 'mention') node.removeAttribute('class');
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});

/** Sanitised message HTML; every address in the text becomes a link too. */
export function sanitizeMessageHtml(html: string): string {
  // RETURN_DOM hands back the <body> the markup was parsed into
  const body = DOMPurify.sanitize(html, { RETURN_DOM: true, ALLOWED_TAGS, ALLOWED_ATTR }) as HTMLElement;
  linkAddresses(body);
  return body.innerHTML;
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
