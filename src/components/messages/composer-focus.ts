// Asking the open channel's composer for the caret (the skip button). Until its draft is restored
// the composer is read-only and cannot hold focus (focus() on it does nothing), so a request made then is
// kept and honoured once the composer is editable, unless focus has moved elsewhere in the meantime.

/** The channel's own composer, not an inline editor of a message (which shares its look). */
export const CHANNEL_COMPOSER_ATTRIBUTE = 'data-channel-composer';

let standing: { from: Element | null } | null = null;

export function focusComposer(): void {
  const editor = document.querySelector<HTMLElement>(`#root [${CHANNEL_COMPOSER_ATTRIBUTE}]`);
  if (editor?.isContentEditable) {
    standing = null;
    editor.focus();
    return;
  }
  standing = { from: document.activeElement };
}

/** The composer, now editable, takes the caret if it was asked for and nothing else has taken it since. */
export function honourComposerFocus(focus: () => void): void {
  const request = standing;
  standing = null;
  if (request && document.activeElement === request.from) focus();
}
