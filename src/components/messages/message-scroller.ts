// The message list's scrolling element (`data-message-scroller`): how near its end or top it is, and
// taking it to the end. It is a reversed flex column with one child holding the rows, so its scroll
// position counts from the newest message (0 there, negative upward): rows added at the end keep a reader
// who is there at the end with no script and no layout read, and a row growing (a link's preview card, a
// picture) keeps them there too.

/** How near the end a list counts as read to its end: it follows new messages from there. */
export const AT_END_PX = 80;

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
