// The message list's scrolling element, as the list and what grows inside it (a link's preview card, a
// picture) see it: where it is, how near its end, and taking it there. It is a reversed flex column with
// one child holding the rows, so its scroll position counts from the newest message (0 there, negative
// upward): rows added at the end keep a reader who is there at the end with no script and no layout read.

/** The attribute the list's scrolling element carries (e2e and the client benchmark find it by it too). */
export const SCROLLER_ATTRIBUTE = 'data-message-scroller';

/** How near the end a list counts as read to its end: it follows new messages from there. */
export const AT_END_PX = 80;

/** The list's scrolling element around `el`, if `el` is in a message list. */
export function scrollerOf(el: Element | null | undefined): HTMLElement | null {
  return el?.closest<HTMLElement>(`[${SCROLLER_ATTRIBUTE}]`) ?? null;
}

/** Pixels between the bottom of what the scroller shows and the end of its content. */
export function distanceFromEnd(scroller: HTMLElement): number {
  return -scroller.scrollTop;
}

/** Pixels between the top of what the scroller shows and the top of its content. */
export function distanceFromTop(scroller: HTMLElement): number {
  return scroller.scrollHeight - scroller.clientHeight + scroller.scrollTop;
}

export function scrollToEnd(scroller: HTMLElement): void {
  scroller.scrollTop = 0;
}
