// The message list's scrolling element (`data-message-scroller`): how near its end or top it is, and
// taking it to the end.

/** How near the end a list counts as read to its end: it follows new messages from there. */
export const AT_END_PX = 80;

/** Pixels between the bottom of what the scroller shows and the end of its content. */
export function distanceFromEnd(scroller: HTMLElement): number {
  return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
}

/** Pixels between the top of what the scroller shows and the top of its content. */
export function distanceFromTop(scroller: HTMLElement): number {
  return scroller.scrollTop;
}

export function scrollToEnd(scroller: HTMLElement): void {
  scroller.scrollTop = scroller.scrollHeight;
}
