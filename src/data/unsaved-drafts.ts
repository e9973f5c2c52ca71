// The words a composer had not yet handed to the store when its page went (a reload, a closed tab, a phone
// putting the page away): a draft is written by the worker (decision 0072), and a write still waiting
// when the page goes is lost with it. The page's last moment allows only synchronous storage, so the
// newest words are kept in localStorage then, and the next start writes them to the store (decision 0074).
import type { DraftWrite } from '../store/drafts.ts';

const PREFIX = 'lantern:unsaved-draft:';

/** A composer's words kept when its page went, and when (epoch ms). */
export interface UnsavedDraft extends DraftWrite {
  at: number;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage withheld (a course frame's third-party rules): nothing to keep them in.
    return null;
  }
}

/** Keeps one channel's unwritten words; the last kept for a channel wins. */
export function keepUnsavedDraft(draft: DraftWrite, at = Date.now()): void {
  try {
    storage()?.setItem(PREFIX + draft.channelId, JSON.stringify({ ...draft, at }));
  } catch {
    // Full or withheld: the store's copy is all there is, as before.
  }
}

/** The words were written after all (the page stayed, or came back): nothing left to recover. */
export function forgetUnsavedDraft(channelId: string): void {
  try {
    storage()?.removeItem(PREFIX + channelId);
  } catch {
    // Withheld: nothing was kept either.
  }
}

const isUnsavedDraft = (value: unknown): value is UnsavedDraft => {
  const v = value as Partial<UnsavedDraft> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.channelId === 'string' &&
    typeof v.institutionId === 'string' &&
    typeof v.content === 'string' &&
    Array.isArray(v.attachments) &&
    typeof v.at === 'number'
  );
};

/** Every channel's kept words (unreadable entries are dropped). */
export function unsavedDrafts(): UnsavedDraft[] {
  const store = storage();
  if (!store) return [];
  const found: UnsavedDraft[] = [];
  try {
    for (let i = store.length - 1; i >= 0; i--) {
      const key = store.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      let value: unknown = null;
      try {
        value = JSON.parse(store.getItem(key) ?? 'null');
      } catch {
        // Not ours to read: dropped below.
      }
      if (isUnsavedDraft(value) && key === PREFIX + value.channelId) found.push(value);
      else store.removeItem(key);
    }
  } catch {
    return found;
  }
  return found;
}

/** Sign-out: a person's words do not outlive their session on the device (spec §4 Session). */
export function forgetAllUnsavedDrafts(): void {
  for (const draft of unsavedDrafts()) forgetUnsavedDraft(draft.channelId);
}
