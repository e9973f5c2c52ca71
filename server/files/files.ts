// File records: registering an upload (or a third-party address) in a channel, marking it uploaded or
// failed, deleting, listing and finding one the caller may read. A file from a workspace the caller is not
// in is answered exactly like one that does not exist.
import { randomUUID } from 'node:crypto';
import { type AnyColumn, and, desc, eq, ilike, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type {
  FileEntity,
  FilesResponse,
  filesQuery,
  registerFileBody,
} from '../../schemas/protocol/index.ts';
import { isWorkspaceAdmin, requireChannelMember, requireMember } from '../access.ts';
import type { Db } from '../db/client.ts';
import { channelMembers, fileAttachments, files, members, messages } from '../db/schema.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../errors.ts';
import { isUniqueViolation } from '../messages/unique-violation.ts';
import type { FileStore } from './file-store.ts';
import { FILE_KEY_PATTERN } from './local-store.ts';
import { discardBytes } from './stored-bytes.ts';
import { findUploadGrant, type UploadGrant } from './upload-quota.ts';

export type FileRow = typeof files.$inferSelect;

/** Where a client GETs the bytes: our own route, or the http(s) address a third-party file was registered with. */
export function fileAddress(row: FileRow): string {
  return row.isFromThirdParty && row.fileUrl ? row.fileUrl : `/api/files/${row.id}/content`;
}

export function toWireFile(row: FileRow): FileEntity {
  return {
    id: row.id,
    institutionId: row.institutionId,
    channelId: row.channelId,
    memberId: row.memberId,
    fileName: row.fileName,
    fileType: row.fileType,
    fileSize: row.fileSize,
    url: fileAddress(row),
    isUploading: row.isUploading,
    uploadFailed: row.uploadFailed,
    isFromThirdParty: row.isFromThirdParty,
    meta: row.meta,
    createdAt: row.createdAt.toISOString(),
  };
}

export interface FilesDeps {
  db: Db;
  store: FileStore;
  maxBytes: number;
  log?: Pick<Logger, 'warn'>;
}

export type RegisterFileInput = z.infer<typeof registerFileBody>;

/** Registers a file; a repeat with the same client id by the same person returns the stored file. */
export async function registerFile(
  deps: FilesDeps,
  userId: string,
  input: RegisterFileInput,
): Promise<{ file: FileEntity; created: boolean }> {
  const { db, store } = deps;
  const { member } = await requireChannelMember(db, input.institutionId, input.channelId, userId);
  if (input.id) {
    const [existing] = await db.select().from(files).where(eq(files.id, input.id)).limit(1);
    if (existing) {
      if (existing.memberId !== member.id || existing.institutionId !== input.institutionId)
        throw badRequest('This file id is already used');
      return { file: toWireFile(existing), created: false };
    }
  }
  let grant: UploadGrant | undefined;
  if (input.isFromThirdParty) {
    if (!/^https?:\/\//i.test(input.fileUrl ?? '')) throw badRequest('fileUrl must be an http(s) address');
  } else {
    // Only an upload this person signed for this workspace: its size is the one signed and counted.
    if (input.fileKey && FILE_KEY_PATTERN.test(input.fileKey))
      grant = await findUploadGrant(db, input.fileKey, userId, input.institutionId);
    if (!grant) throw badRequest('Unknown fileKey: sign an upload for this workspace first');
    if (grant.size > deps.maxBytes) throw new HttpError(413, `Files can be at most ${deps.maxBytes} bytes`);
  }
  const stored = grant ? await store.storedSize(grant.fileKey) : undefined;
  try {
    const [row] = await db
      .insert(files)
      .values({
        id: input.id ?? randomUUID(),
        institutionId: input.institutionId,
        channelId: input.channelId,
        memberId: member.id,
        fileKey: input.isFromThirdParty ? null : input.fileKey,
        fileUrl: input.isFromThirdParty ? input.fileUrl : null,
        fileName: input.fileName,
        fileType: input.fileType,
        // Our bytes: as stored (or as signed, until they are). A third party's: as the sender states them,
        // shown with the attachment and never counted as storage (server/metrics/stats.ts).
        fileSize: input.isFromThirdParty
          ? input.fileSize
          : typeof stored === 'number'
            ? stored
            : (grant?.size ?? 0),
        isFromThirdParty: input.isFromThirdParty,
        meta: input.meta ?? {},
        // Bytes already in the local store (sign → PUT → register) need no later update.
        isUploading: !input.isFromThirdParty && typeof stored !== 'number',
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return { file: toWireFile(row), created: true };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('This file is already registered');
    throw err;
  }
}

/** The file and the caller's member record in its workspace; 404 when they are not in that workspace. */
async function fileInCallersWorkspace(db: Db, fileId: string, userId: string) {
  const [row] = await db
    .select({ file: files, member: members })
    .from(files)
    .innerJoin(members, and(eq(members.institutionId, files.institutionId), eq(members.userId, userId)))
    .where(eq(files.id, fileId))
    .limit(1);
  if (!row) throw notFound('File not found');
  return row;
}

export async function updateFile(
  deps: FilesDeps,
  userId: string,
  fileId: string,
  change: { isUploading?: boolean; uploadFailed?: boolean },
): Promise<FileEntity> {
  const { file, member } = await fileInCallersWorkspace(deps.db, fileId, userId);
  if (file.memberId !== member.id) throw forbidden('Only the person who uploaded a file can change it');
  let fileSize = file.fileSize;
  if (change.isUploading === false && !file.isFromThirdParty && file.fileKey) {
    const stored = await deps.store.storedSize(file.fileKey);
    if (stored === null) throw badRequest("The file's bytes have not been uploaded");
    if (typeof stored === 'number') fileSize = stored;
  }
  const [row] = await deps.db
    .update(files)
    .set({ ...change, fileSize })
    .where(eq(files.id, fileId))
    .returning();
  if (!row) throw notFound('File not found');
  return toWireFile(row);
}

/**
 * Deletes the files the caller uploaded (workspace admins: any in their workspace). Ids that do not exist
 * or belong to another workspace are skipped, so a retried delete succeeds; someone else's file is 403.
 */
export async function deleteFiles(deps: FilesDeps, userId: string, fileIds: string[]): Promise<string[]> {
  const rows = await deps.db
    .select({ file: files, member: members })
    .from(files)
    .innerJoin(members, and(eq(members.institutionId, files.institutionId), eq(members.userId, userId)))
    .where(inArray(files.id, fileIds));
  for (const { file, member } of rows)
    if (file.memberId !== member.id && !isWorkspaceAdmin(member))
      throw forbidden('Only the uploader or a workspace admin can delete a file');
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.file.id);
  await deps.db.delete(files).where(inArray(files.id, ids));
  await discardBytes(
    deps,
    rows.flatMap(({ file }) => (file.fileKey ? [file.fileKey] : [])),
  );
  return ids;
}

/**
 * A live message carries the file in one of `memberId`'s channels (fileAttachments, written with the post
 * or forward), optionally in this channel only. Registering a file in a channel shares nothing by itself:
 * until it is sent, it is a draft's (decision 0081).
 */
function carriedInChannelsOf(memberId: SQL | AnyColumn, channelId?: string): SQL {
  return sql`exists (
    select 1 from ${fileAttachments}
    inner join ${messages} on ${messages.id} = ${fileAttachments.messageId}
    inner join ${channelMembers} on ${channelMembers.channelId} = ${fileAttachments.channelId}
    where ${fileAttachments.fileId} = ${files.id} and ${messages.deletedAt} is null
      and ${channelMembers.memberId} = ${memberId}
      ${channelId ? sql`and ${fileAttachments.channelId} = ${channelId}` : sql``})`;
}

/**
 * Who may read a file, from its own records only: its uploader, or a member of a channel where a live
 * message carries it. A file picked and removed before sending, or whose message was deleted, stays the
 * uploader's alone.
 */
export function readableBy(memberId: SQL | AnyColumn): SQL {
  return sql`(${files.memberId} = ${memberId} or ${carriedInChannelsOf(memberId)})`;
}

/** The stored keys of a channel's files: read before the channel is deleted (its file rows go by cascade). */
export async function channelFileKeys(db: Db, channelId: string): Promise<string[]> {
  const rows = await db
    .select({ fileKey: files.fileKey })
    .from(files)
    .where(and(eq(files.channelId, channelId), isNotNull(files.fileKey)));
  return rows.flatMap((r) => (r.fileKey ? [r.fileKey] : []));
}

/** The file if the caller may read it; 404 otherwise (whether it exists is not revealed). */
export async function readableFile(db: Db, userId: string, fileId: string): Promise<FileRow> {
  const [row] = await db
    .select({ file: files })
    .from(files)
    .innerJoin(members, and(eq(members.institutionId, files.institutionId), eq(members.userId, userId)))
    .where(and(eq(files.id, fileId), readableBy(sql`${members.id}`)))
    .limit(1);
  if (!row) throw notFound('File not found');
  return row.file;
}

export async function listFiles(
  db: Db,
  userId: string,
  institutionId: string,
  query: z.infer<typeof filesQuery>,
): Promise<FilesResponse> {
  const member = await requireMember(db, institutionId, userId);
  const search = query.search ? `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  // The files shared in the caller's channels (or in one of them): carried by a live message there.
  const where = and(
    eq(files.institutionId, institutionId),
    eq(files.isUploading, false),
    eq(files.uploadFailed, false),
    carriedInChannelsOf(sql`${member.id}`, query.channelId),
    search ? ilike(files.fileName, search) : undefined,
  );
  const rows = await db
    .select({ file: files, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(files)
    .where(where)
    .orderBy(desc(files.createdAt), desc(files.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const total = rows[0]?.total ?? 0;
  return {
    data: rows.map((r) => toWireFile(r.file)),
    metadata: {
      page: query.page,
      limit: query.limit,
      total,
      hasMore: query.page * query.limit < total,
    },
  };
}
