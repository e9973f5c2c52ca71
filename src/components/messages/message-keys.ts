// Keyboard in the message list (issue 15 item 5): each message is one tab stop. On a focused message
// ↑ and ↓ (and the WAI-ARIA feed's Page Up and Page Down, decision 0077) go to the previous and next
// message, Home and End to the first and last shown, Ctrl+End out of the feed to the composer, and →
// (or Enter) into its actions; inside the actions ← and → move between them and Escape goes back to the
// message. Tab leaves the actions, so a channel is not a hundred tab stops of buttons.
import type { FocusEvent, KeyboardEvent } from 'react';
import { focusComposer } from './composer-focus.ts';

const ROW = 'article[data-gen-id]';

function rowsAround(row: HTMLElement): HTMLElement[] {
  const list = row.closest('[data-message-list]') ?? row.parentElement?.parentElement ?? document.body;
  return [...list.querySelectorAll<HTMLElement>(ROW)];
}

/**
 * A message reached or used from the keyboard shows its actions (data-keys, read by the toolbar's
 * classes) until focus leaves it: :focus-visible alone is not set on an element focused by a script.
 */
function markKeyboard(row: HTMLElement): void {
  row.dataset.keys = '';
}

function focusRow(row: HTMLElement | undefined): void {
  if (!row) return;
  markKeyboard(row);
  row.focus({ preventScroll: true });
  row.scrollIntoView({ block: 'nearest' });
}

/** Focus left the message (not for one of its own buttons): its actions go back to hover only. */
export function onMessageBlur(event: FocusEvent<HTMLElement>): void {
  const row = event.currentTarget;
  if (!row.contains(event.relatedTarget as Node | null)) delete row.dataset.keys;
}

/** The actions a focused message offers: the toolbar on desktop, the "…" button on phones. */
function firstAction(row: HTMLElement): HTMLElement | null {
  const visible = (el: HTMLElement) => el.offsetParent !== null;
  const tools = [...row.querySelectorAll<HTMLElement>('[role="toolbar"] button')].filter(visible);
  return (
    tools[0] ?? [...row.querySelectorAll<HTMLElement>('button[data-message-menu]')].find(visible) ?? null
  );
}

/** Keys on the message itself (not on something inside it). */
export function onMessageKeyDown(event: KeyboardEvent<HTMLElement>): void {
  const row = event.currentTarget;
  if (event.target !== row || event.altKey || event.metaKey) return;
  if (event.ctrlKey) {
    if (event.key !== 'End') return;
    focusComposer();
    event.preventDefault();
    return;
  }
  const rows = rowsAround(row);
  const at = rows.indexOf(row);
  if (['ArrowRight', 'Enter'].includes(event.key)) markKeyboard(row);
  switch (event.key) {
    case 'ArrowDown':
    case 'PageDown':
      focusRow(rows[at + 1]);
      break;
    case 'ArrowUp':
    case 'PageUp':
      focusRow(rows[at - 1]);
      break;
    case 'Home':
      focusRow(rows[0]);
      break;
    case 'End':
      focusRow(rows[rows.length - 1]);
      break;
    case 'ArrowRight':
    case 'Enter':
      firstAction(row)?.focus();
      break;
    default:
      return;
  }
  event.preventDefault();
}

/** Keys inside a message's toolbar: ← → between its buttons, Escape back to the message. */
export function onToolbarKeyDown(event: KeyboardEvent<HTMLElement>): void {
  const toolbar = event.currentTarget;
  const buttons = [...toolbar.querySelectorAll<HTMLElement>('button')];
  const at = buttons.indexOf(event.target as HTMLElement);
  if (at === -1) return;
  if (event.key === 'ArrowRight') buttons[(at + 1) % buttons.length]?.focus();
  else if (event.key === 'ArrowLeft') buttons[(at - 1 + buttons.length) % buttons.length]?.focus();
  else if (event.key === 'Escape') toolbar.closest<HTMLElement>(ROW)?.focus();
  else return;
  event.preventDefault();
  event.stopPropagation();
}
