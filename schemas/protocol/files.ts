// Files: upload signing, registration and the file list.
import { z } from 'zod';
import { PAGE_NUMBER_MAX, PAGE_NUMBER_TOO_BIG } from './limits.ts';
import { genId, id, isoDate } from './primitives.ts';
import { SEARCH_QUERY_MAX } from './search.ts';

// ───────────────────────────── REST: files ─────────────────────────────
export const FILE_NAME_MAX = 255;
/** The largest file the server takes unless FILE_MAX_BYTES says otherwise: 25 MB. */
export const FILE_MAX_BYTES_DEFAULT = 25 * 1024 * 1024;
export const FILES_PAGE_SIZE = 30;
export const FILES_PER_DELETE_MAX = 100;
/**
 * Ask for somewhere to PUT a file's bytes. `size` is the exact byte count that will be sent; the bytes count
 * against the caller's and this workspace's upload caps (413 past either).
 */
export const fileSignQuery = z.object({
  institutionId: id,
  size: z.coerce.number().int().min(0),
  fileName: z.string().max(FILE_NAME_MAX).optional(),
  fileType: z.string().max(255).optional(),
});
/**
 * `uploadUrl` takes one PUT of exactly `size` bytes with the file's content type before `expiresAt`:
 * the server's own store (relative address) or a presigned S3 address. `fileKey` then goes into POST /api/files.
 */
export const fileSignResponse = z.object({
  signature: z.string(),
  fileKey: z.string(),
  uploadUrl: z.string(),
  expiresAt: isoDate,
});
/** The query of an `uploadUrl` on the server's own store: what was signed, and the signature. */
export const uploadQuery = z.object({
  size: z.coerce.number().int().min(0),
  expires: z.coerce.number().int(),
  // min(1): an address without a signature is bad input (400), like one with too long a signature; the
  // contract's maximum-length variation pads an example that could otherwise be empty (then 403).
  signature: z.string().min(1).max(128),
});
export type FileSignResponse = z.infer<typeof fileSignResponse>;
/** PUT of the bytes to the server's own store (the sign call's uploadUrl): 201 with the key. */
export const fileUploadResponse = z.object({ fileKey: z.string() });
export const fileMeta = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
/**
 * Register a file posted in a channel. Own uploads give `fileKey` (from the sign call); third-party files
 * (isFromThirdParty, e.g. a GIF service) give `fileUrl` instead. A client-chosen `id` makes a retried
 * registration return the same file.
 */
export const registerFileBody = z
  .object({
    id: genId.optional(),
    institutionId: id,
    channelId: id,
    fileName: z.string().trim().min(1, 'A file needs a name').max(FILE_NAME_MAX),
    fileType: z.string().max(255),
    fileSize: z.number().int().nonnegative(),
    isFromThirdParty: z.boolean().default(false),
    meta: fileMeta.optional(),
    fileKey: z.string().max(200).optional(),
    fileUrl: z.string().max(2048, { abort: true }).url().optional(),
  })
  .refine((b) => (b.isFromThirdParty ? !!b.fileUrl : !!b.fileKey), {
    message: 'Give fileKey for an uploaded file, or fileUrl for a third-party one',
  });
export const fileEntity = z.object({
  id,
  institutionId: id,
  channelId: id,
  memberId: id,
  fileName: z.string(),
  fileType: z.string(),
  fileSize: z.number().int().nonnegative(),
  /** Where to GET the bytes: /api/files/{id}/content with the bearer token, or the third-party address. */
  url: z.string(),
  isUploading: z.boolean(),
  uploadFailed: z.boolean(),
  isFromThirdParty: z.boolean(),
  meta: fileMeta,
  createdAt: isoDate,
});
export type FileEntity = z.infer<typeof fileEntity>;
export const fileResponse = z.object({ file: fileEntity });
export const updateFileBody = z
  .object({ isUploading: z.boolean().optional(), uploadFailed: z.boolean().optional() })
  .refine((b) => b.isUploading !== undefined || b.uploadFailed !== undefined, {
    message: 'Give isUploading or uploadFailed',
  });
export const deleteFilesBody = z.object({ fileIds: z.array(id).min(1).max(FILES_PER_DELETE_MAX) });
export const deleteFilesResponse = z.object({ fileIds: z.array(id) });
export const filesQuery = z.object({
  channelId: id.optional(),
  page: z.coerce.number().int().min(1).max(PAGE_NUMBER_MAX, PAGE_NUMBER_TOO_BIG).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(FILES_PAGE_SIZE),
  search: z.string().trim().max(SEARCH_QUERY_MAX).optional(),
});
export const filesResponse = z.object({
  data: z.array(fileEntity),
  metadata: z.object({ page: z.number(), limit: z.number(), total: z.number(), hasMore: z.boolean() }),
});
export type FilesResponse = z.infer<typeof filesResponse>;

/**
 * GET /api/files/{id}/excerpt: the opening text of a Word or PowerPoint file for its card (issue 15 item
 * 6), null for other files or one whose text cannot be read.
 */
export const fileExcerptResponse = z.object({ excerpt: z.string().nullable() });
export type FileExcerptResponse = z.infer<typeof fileExcerptResponse>;
