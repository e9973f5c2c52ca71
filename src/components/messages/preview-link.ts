// Which link of a message gets a preview card (decision 0053): the first web address in it, as the
// message shows it (written links and addresses found in the text), but none inside code, none to Lantern
// itself, and none with a user name or password in it.
import { renderMessageHtml } from './message-html.ts';

/** Most messages have no address at all: they skip the parse, and rows skip the card. */
export function mayHoldLink(html: string): boolean {
  return /https?:|www\.|\.[a-z]{2}/i.test(html);
}

/** Null too while the message sanitiser is still loading (message-html.ts): the card comes once it has. */
export function firstPreviewableLink(html: string, ownOrigin: string): string | null {
  if (!mayHoldLink(html)) return null;
  const rendered = renderMessageHtml(html);
  if (rendered === null) return null;
  const template = document.createElement('template');
  template.innerHTML = rendered;
  for (const a of template.content.querySelectorAll<HTMLAnchorElement>('a[href]')) {
    if (a.closest('code, pre, .mention')) continue;
    let url: URL;
    try {
      url = new URL(a.getAttribute('href') ?? '');
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    if (url.origin === ownOrigin || url.username || url.password) continue;
    url.hash = '';
    return url.href;
  }
  return null;
}
