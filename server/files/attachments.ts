// A message's attachments, built from the server's own file records: a client names files by id only; the
// url, name, type and size come from the file row, and a file the sender may not attach is refused.
import { and, eq, inArray } from 'drizzle-orm';
import type { Attachment } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { fileAttachments, files, members } from '../db/schema.ts';
import { badRequest } from '../errors.ts';
import { type FileRow, fileAddress, readableBy } from './files.ts';

/** Who is writing the message and where. */
export interface AttachmentSender {
  institutionId: string;
  channelId: string;
  memberId: string;
}

export function toAttachment(row: FileRow): Attachment {
  return {
    id: row.id,
    fileName: row.fileName,
    fileType: row.fileType,
    fileSize: row.fileSize,
    url: fileAddress(row),
  };
}

/** Each id once, in the order first given: a repeated id would only show the file twice. */
function distinctIds(requested: readonly Pick<Attachment, 'id'>[]): string[] {
  return [...new Set(requested.map((a) => a.id))];
}

function refuse(ids: string[], found: Set<string>, reason: string): void {
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw badRequest(`File ${missing} cannot be attached: ${reason}`);
}

/**
 * A new post may carry only files its sender registered in that same channel. Whatever else the client sent
 * about a file (its url, name, type, size) is replaced by the stored record.
 */
export async function postedAttachments(
  db: Db,
  sender: AttachmentSender,
  requested: readonly Pick<Attachment, 'id'>[],
): Promise<Attachment[]> {
  const ids = distinctIds(requested);
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(files)
    .where(
      and(
        inArray(files.id, ids),
        eq(files.institutionId, sender.institutionId),
        eq(files.channelId, sender.channelId),
        eq(files.memberId, sender.memberId),
        eq(files.uploadFailed, false),
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  refuse(ids, new Set(byId.keys()), 'attach only files you uploaded to this channel');
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toAttachment(row)] : [];
  });
}

/**
 * A forward copies the files of a stored message that the forwarder may read themselves (by the files' own
 * records), rebuilt from those records: an address stored in an older message is never copied on.
 */
export async function forwardedAttachments(
  db: Db,
  forwarder: { institutionId: string; memberId: string },
  stored: readonly Pick<Attachment, 'id'>[],
): Promise<Attachment[]> {
  const ids = distinctIds(stored);
  if (ids.length === 0) return [];
  const rows = await db
    .select({ file: files })
    .from(files)
    .innerJoin(members, eq(members.id, forwarder.memberId))
    .where(
      and(inArray(files.id, ids), eq(files.institutionId, forwarder.institutionId), readableBy(members.id)),
    );
  const byId = new Map(rows.map((r) => [r.file.id, r.file]));
  refuse(ids, new Set(byId.keys()), 'it is no longer available to you');
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toAttachment(row)] : [];
  });
}

/** Records, in the message's transaction, that it carries these files: members of its channel may read them. */
export async function recordAttachments(
  tx: Db,
  message: { id: string; channelId: string; attachments: readonly Pick<Attachment, 'id'>[] },
): Promise<void> {
  if (message.attachments.length === 0) return;
  await tx
    .insert(fileAttachments)
    .values(
      message.attachments.map((a) => ({ fileId: a.id, messageId: message.id, channelId: message.channelId })),
    )
    .onConflictDoNothing();
}
