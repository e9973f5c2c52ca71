// The composer's draft saving: writes run one at a time and only the newest waiting value is written
// next. Whether a save is under way is said under the composer by `DraftStatus`, which alone follows it:
// held in the composer's state, it re-rendered the whole composer twice for every keystroke.
import { type RefObject, useRef, useSyncExternalStore } from 'react';
import { saveDraft } from '../../data/drafts.ts';

type SaveState = 'idle' | 'saving' | 'saved';

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
  async function drain() {
    writing.current = true;
    while (next.current !== null) {
      const content = next.current;
      next.current = null;
      try {
        await saveDraft(institutionId, channelId, { content, attachments: [] });
      } catch (error) {
        console.warn('Draft not saved', error);
      }
    }
    writing.current = false;
    saving.set('saved');
  }
  function persist(html: string) {
    lastWritten.current = html;
    next.current = html;
    saving.set('saving');
    if (!writing.current) void drain();
  }
  return { persist, lastWritten, status: saving };
}

/** "Saving draft…" / "Draft saved on this device" while there is something to send. */
export function DraftStatus({ writer, shown }: { writer: DraftWriter; shown: boolean }) {
  const state = useSyncExternalStore(writer.status.subscribe, writer.status.get);
  return (
    <p aria-live="polite" className="ml-auto">
      {shown && state !== 'idle'
        ? state === 'saving'
          ? 'Saving draft…'
          : 'Draft saved on this device'
        : null}
    </p>
  );
}
