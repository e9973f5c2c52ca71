// Spec §4/§5 draft rule: a draft is kept only while it has content (empty markup ignored) or
// attachments; attachments still uploading do not count and are not saved.
import type { Attachment } from '../../schemas/protocol/index.ts';
import type { LanternCollections } from './database.ts';

/** Content is empty when, with empty paragraphs and tags removed, it is blank. */
export function isContentEmpty(html: string): boolean {
  const text = html
    .replace(/<p>\s*(<br\s*\/?>)?\s*<\/p>/gi, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;|\u00a0/gi, ' ');
  return text.trim() === '';
}

/** Attachments that are finished uploading; only these are kept in a draft. */
export function settledAttachments(attachments: readonly Attachment[]): Attachment[] {
  return attachments.filter((a) => !a.isUploading);
}

export function isDraftEmpty(draft: { content: string; attachments: readonly Attachment[] }): boolean {
  return isContentEmpty(draft.content) && settledAttachments(draft.attachments).length === 0;
}

/** What a composer hands over to keep as its channel's draft. */
export interface DraftWrite {
  institutionId: string;
  channelId: string;
  content: string;
  attachments: Attachment[];
}

/**
 * Keeps the draft only while it is non-empty (spec §4, §5); uploading attachments are left out. Run by the
 * worker (worker/store-writes.ts), off the page's thread that the next keystroke needs.
 */
export async function writeDraft(db: Pick<LanternCollections, 'drafts'>, draft: DraftWrite): Promise<void> {
  if (isDraftEmpty(draft)) {
    await db.drafts.findOne(draft.channelId).remove();
    return;
  }
  await db.drafts.upsert({
    channelId: draft.channelId,
    institutionId: draft.institutionId,
    content: draft.content,
    attachments: settledAttachments(draft.attachments),
    lastUpdateAt: Date.now(),
  });
}
