// Drafts: what a person typed in a channel's composer and has not sent, kept while non-empty (spec §4, §5).

import type { DraftDoc } from '../../schemas/collections.ts';
import type { Attachment } from '../../schemas/protocol/index.ts';
import { type DraftWrite, writeDraft } from '../store/drafts.ts';
import { answeredBeforeOutdated } from './app-version.ts';
import { requireClient, requireConnection } from './client.ts';
import { readStoreOnce, subscribeStoreRead, useStoreRead, useStoreReadPart } from './store-reads.ts';
import { forgetUnsavedDraft, unsavedDrafts } from './unsaved-drafts.ts';

/**
 * Follows one channel's stored draft outside rendering (the composer): `listener` hears it once it is read
 * (null: none) and after every change, its own writes included. Returns the unfollow.
 */
export function followDraft(channelId: string, listener: (draft: DraftDoc | null) => void): () => void {
  return subscribeStoreRead('draft', { channelId }, (draft) => {
    if (draft !== undefined) listener(draft);
  });
}

/** Drafts of a workspace, most recently changed first. */
export function useDrafts(institutionId: string): DraftDoc[] | undefined {
  return useStoreRead('drafts', { institutionId });
}

/** How many drafts a workspace holds; unchanged while one of them is being typed. */
export function useDraftCount(institutionId: string): number | undefined {
  return useStoreReadPart('drafts', { institutionId }, (drafts) => drafts?.length);
}

/**
 * Keeps the draft only while it is non-empty (spec §4, §5), written by the worker: through this tab's own
 * store each keystroke's write held the page's thread about as long as the key did (decision 0072). A tab
 * whose worker has retired writes into its own store, so the words are still kept until it reloads.
 */
export async function saveDraft(
  institutionId: string,
  channelId: string,
  draft: { content: string; attachments: Attachment[] },
): Promise<void> {
  const write: DraftWrite = {
    institutionId,
    channelId,
    content: draft.content,
    attachments: draft.attachments,
  };
  const { worker } = await requireConnection();
  if (await answeredBeforeOutdated(() => worker.saveDraft(write))) return;
  // This tab's worker has retired: the tab's own store keeps the words until it reloads.
  await writeDraft((await requireClient()).db, write);
}

/**
 * Writes the words composers kept when their page went before the store had them (decision 0074), unless
 * the stored draft changed after (another tab typed on); each is forgotten once written. One the store
 * refuses (a full disk) stays for the next start: the words are nowhere else.
 */
export async function recoverUnsavedDrafts(): Promise<void> {
  for (const kept of unsavedDrafts()) {
    try {
      const stored = await readStoreOnce('draft', { channelId: kept.channelId });
      if (!stored || stored.lastUpdateAt < kept.at)
        await saveDraft(kept.institutionId, kept.channelId, {
          content: kept.content,
          attachments: kept.attachments,
        });
      forgetUnsavedDraft(kept.channelId);
    } catch (error) {
      console.warn('Words kept from a closed page could not be written yet', error);
    }
  }
}
