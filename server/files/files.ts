// File records: registering an upload (or a third-party address) in a channel, marking it uploaded or
// failed, deleting, listing and finding one the caller may read. A file from a workspace the caller is not
// in is answered exactly like one that does not exist.
import { randomUUID } from 'node:crypto';
import { and, desc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { FileEntity, FilesResponse, filesQuery, registerFileBody } from '../../schemas/protocol.ts';
import { isWorkspaceAdmin, requireChannelMember, requireMember } from '../access.ts';
import type { Db } from '../db/client.ts';
import { channelMembers, files, members, messages } from '../db/schema.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../errors.ts';
import { isUniqueViolation } from '../messages/unique-violation.ts';
import type { FileStore } from './file-store.ts';
import { FILE_KEY_PATTERN } from './local-store.ts';

export type FileRow = typeof files.$inferSelect;

export function toWireFile(row: FileRow): FileEntity {
  return {
    id: row.id,
    institutionId: row.institutionId,
    channelId: row.channelId,
    memberId: row.memberId,
    fileName: row.fileName,
    fileType: row.fileType,
    fileSize: row.fileSize,
    url: row.isFromThirdParty && row.fileUrl ? row.fileUrl : `/api/files/${row.id}/content`,
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
  if (input.isFromThirdParty) {
    if (!/^https?:\/\//i.test(input.fileUrl ?? '')) throw badRequest('fileUrl must be an http(s) address');
  } else {
    if (!input.fileKey || !FILE_KEY_PATTERN.test(input.fileKey)) throw badRequest('Unknown fileKey');
    if (input.fileSize > deps.maxBytes)
      throw new HttpError(413, `Files can be at most ${deps.maxBytes} bytes`);
  }
  const stored = input.isFromThirdParty || !input.fileKey ? undefined : await store.storedSize(input.fileKey);
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
        fileSize: typeof stored === 'number' ? stored : input.fileSize,
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
  for (const { file } of rows) if (file.fileKey) await deps.store.remove(file.fileKey);
  return ids;
}

/**
 * Who may read a file: its uploader, a member of the channel it was posted in, or a member of a channel
 * where a live message carries it as an attachment (a forward).
 */
function readableBy(memberId: SQL): SQL {
  const postedWhereReadable = sql`exists (
    select 1 from ${messages}
    where ${messages.channelId} = ${channelMembers.channelId} and ${messages.deletedAt} is null
      and ${messages.attachments} @> jsonb_build_array(jsonb_build_object('id', ${files.id}::text)))`;
  return sql`(${files.memberId} = ${memberId} or exists (
    select 1 from ${channelMembers}
    where ${channelMembers.memberId} = ${memberId}
      and (${channelMembers.channelId} = ${files.channelId} or ${postedWhereReadable})))`;
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
  const where = and(
    eq(files.institutionId, institutionId),
    eq(files.isUploading, false),
    eq(files.uploadFailed, false),
    inArray(
      files.channelId,
      db
        .select({ id: channelMembers.channelId })
        .from(channelMembers)
        .where(eq(channelMembers.memberId, member.id)),
    ),
    query.channelId ? eq(files.channelId, query.channelId) : undefined,
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
