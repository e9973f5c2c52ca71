// The composer's draft saving: writes run one at a time and only the newest waiting value is written
// next. Whether a save is under way is said under the composer by `DraftStatus`, which alone follows it:
// held in the composer's state, it re-rendered the whole composer twice for every keystroke. A save is
// said only once it is slow to finish: a line flipping between "Saving…" and "Saved" with every key was
// a render and a layout per key, and flicker to read.
import { type RefObject, useEffect, useRef, useSyncExternalStore } from 'react';
import { saveDraft } from '../../data/drafts.ts';
import { forgetUnsavedDraft, keepUnsavedDraft } from '../../data/unsaved-drafts.ts';
import { cn } from '../ui/cn.ts';

type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

/** How long a save may take before "Saving draft…" is shown (a write normally takes a few milliseconds). */
const SLOW_SAVE_MS = 400;

/** Whether this composer's draft is being saved, for the one line that says so. */
class SaveStatus {
  private state: SaveState = 'idle';
  private readonly listeners = new Set<() => void>();
  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };
  readonly get = () => this.state;
  set(next: SaveState): void {
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}

export interface DraftWriter {
  persist(html: string): void;
  /** The markup last handed to persist(): the draft read back from the store is this composer's own. */
  lastWritten: RefObject<string>;
  status: SaveStatus;
}

export function useDraftWriter(institutionId: string, channelId: string): DraftWriter {
  const writing = useRef(false);
  const next = useRef<string | null>(null);
  const lastWritten = useRef('');
  const status = useRef<SaveStatus | null>(null);
  status.current ??= new SaveStatus();
  const saving = status.current;
  const slow = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Kept in localStorage when the page went with a write still to make (decision 0074).
  const keptAside = useRef(false);
  useEffect(() => {
    const leaving = () => {
      if (!writing.current) return;
      keepUnsavedDraft({ institutionId, channelId, content: lastWritten.current, attachments: [] });
      keptAside.current = true;
    };
    // A phone may end a page it has put away without a pagehide: hidden is the last sure moment.
    const hidden = () => {
      if (document.visibilityState === 'hidden') leaving();
    };
    window.addEventListener('pagehide', leaving);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('pagehide', leaving);
      document.removeEventListener('visibilitychange', hidden);
    };
  }, [institutionId, channelId]);
  async function drain() {
    writing.current = true;
    // The line keeps what it said (nothing yet, or "saved") unless this save is slow.
    slow.current = setTimeout(() => saving.set('saving'), SLOW_SAVE_MS);
    // Whether the newest value is kept: an earlier failed write is made good by a later one.
    let kept = true;
    while (next.current !== null) {
      const content = next.current;
      next.current = null;
      try {
        await saveDraft(institutionId, channelId, { content, attachments: [] });
        kept = true;
      } catch (error) {
        kept = false;
        console.warn('Draft not saved', error);
      }
    }
    writing.current = false;
    // The page stayed (or came back) and the newest words are written: nothing to recover.
    if (kept && keptAside.current) {
      keptAside.current = false;
      forgetUnsavedDraft(channelId);
    }
    if (slow.current !== null) clearTimeout(slow.current);
    slow.current = null;
    saving.set(kept ? 'saved' : 'failed');
  }
  function persist(html: string) {
    lastWritten.current = html;
    next.current = html;
    if (!writing.current) void drain();
  }
  return { persist, lastWritten, status: saving };
}

const SAID: Record<Exclude<SaveState, 'idle'>, string> = {
  saving: 'Saving draft…',
  saved: 'Draft saved on this device',
  // Said rather than hidden: the words are still in the composer, and sending them still works.
  failed: 'Draft not saved on this device',
};

/** "Saving draft…" (when slow) / "Draft saved on this device" while there is something to send. */
export function DraftStatus({ writer, shown }: { writer: DraftWriter; shown: boolean }) {
  const state = useSyncExternalStore(writer.status.subscribe, writer.status.get);
  return (
    <p aria-live="polite" className={cn('ml-auto', state === 'failed' && 'text-danger')}>
      {shown && state !== 'idle' ? SAID[state] : null}
    </p>
  );
}
