// Writes a tab hands to its worker instead of making them on its own thread: a draft is written on every
// keystroke, and through the tab's own store (RxDB on Dexie) each write took the page's main thread for
// about as long as the key itself (decision 0072). Served by the worker the tab talks to, like its store
// reads (the SharedWorker, or the tab's own dedicated worker in the fallback), never forwarded.
import { type DraftWrite, writeDraft } from '../src/store/drafts.ts';
import type { StoreWriteHandlers } from './api.ts';
import type { SyncDatabase } from './sync-database.ts';

const isId = (value: unknown) => typeof value === 'string' && value.length > 0;

/** A tab's draft as it was sent: the shape is checked, so a faulty caller hears why instead of a store error. */
function checkedDraft(draft: DraftWrite): DraftWrite {
  if (
    typeof draft !== 'object' ||
    draft === null ||
    !isId(draft.institutionId) ||
    !isId(draft.channelId) ||
    typeof draft.content !== 'string' ||
    !Array.isArray(draft.attachments) ||
    !draft.attachments.every((a) => typeof a === 'object' && a !== null)
  )
    throw new TypeError('A draft needs its workspace, its channel, its content and its attachments.');
  return draft;
}

export function storeWriteHandlers(store: () => Promise<SyncDatabase>): StoreWriteHandlers {
  return {
    async saveDraft(draft) {
      const checked = checkedDraft(draft);
      await writeDraft(await store(), checked);
    },
  };
}
