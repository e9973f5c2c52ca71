// Drafts: what a person typed in a channel's composer and has not sent, kept while non-empty (spec §4, §5).

import type { DraftDoc } from '../../schemas/collections.ts';
import type { Attachment } from '../../schemas/protocol/index.ts';
import { isDraftEmpty, settledAttachments } from '../store/drafts.ts';
import { requireClient } from './client.ts';
import { useStoreRead, useStoreReadPart } from './store-reads.ts';

export function useDraft(channelId: string): DraftDoc | null | undefined {
  return useStoreRead('draft', { channelId });
}

/** Drafts of a workspace, most recently changed first. */
export function useDrafts(institutionId: string): DraftDoc[] | undefined {
  return useStoreRead('drafts', { institutionId });
}

/** How many drafts a workspace holds; unchanged while one of them is being typed. */
export function useDraftCount(institutionId: string): number | undefined {
  return useStoreReadPart('drafts', { institutionId }, (drafts) => drafts?.length);
}

/** Keeps the draft only while it is non-empty (spec §4, §5); uploading attachments are left out. */
export async function saveDraft(
  institutionId: string,
  channelId: string,
  draft: { content: string; attachments: Attachment[] },
): Promise<void> {
  const { db } = await requireClient();
  if (isDraftEmpty(draft)) {
    await db.drafts.findOne(channelId).remove();
    return;
  }
  await db.drafts.upsert({
    channelId,
    institutionId,
    content: draft.content,
    attachments: settledAttachments(draft.attachments),
    lastUpdateAt: Date.now(),
  });
}
