// REST routes for files: an upload address (sign), the upload itself into the server's own store, the file
// records (register, update, delete, list) and the download, which only channel readers get.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  deleteFilesBody,
  fileSignQuery,
  filesQuery,
  id,
  registerFileBody,
  updateFileBody,
  uploadQuery,
} from '../../schemas/protocol/index.ts';
import { requireMember } from '../access.ts';
import type { AppContext } from '../context.ts';
import { HttpError } from '../errors.ts';
import { downloadHeaders } from '../files/download.ts';
import { createExcerpts } from '../files/file-excerpt.ts';
import { createFileStore } from '../files/file-store.ts';
import {
  deleteFiles,
  type FilesDeps,
  listFiles,
  readableFile,
  registerFile,
  updateFile,
} from '../files/files.ts';
import { reserveUpload } from '../files/upload-quota.ts';
import { verifyUpload } from '../files/upload-signature.ts';
import { startUploadSweep } from '../files/upload-sweep.ts';
import { getAuth } from './auth-hook.ts';

const fileParams = z.object({ id });
const uploadParams = z.object({ fileKey: z.string().max(64) });

export function registerFileRoutes(app: FastifyInstance, ctx: AppContext): void {
  const store = createFileStore(ctx.config, ctx.secrets.fileSigningKey);
  const maxBytes = ctx.config.FILE_MAX_BYTES;
  const deps: FilesDeps = { db: ctx.db, store, maxBytes, log: ctx.log };
  const limits = {
    perUser: ctx.config.UPLOAD_BYTES_PER_USER,
    perWorkspace: ctx.config.UPLOAD_BYTES_PER_WORKSPACE,
  };
  const stopSweep = startUploadSweep({ db: ctx.db, store, log: ctx.log });
  app.addHook('onClose', async () => stopSweep());

  // Signing is where bytes are promised, so the caps are checked here and the promise is recorded.
  app.get('/api/files/upload/sign', async (request) => {
    const { userId } = getAuth(request);
    const query = fileSignQuery.parse(request.query);
    if (query.size > maxBytes) throw new HttpError(413, `Files can be at most ${maxBytes} bytes`);
    await requireMember(ctx.db, query.institutionId, userId);
    const ticket = store.signUpload(query.size, query.fileType, new Date());
    await reserveUpload(ctx.db, limits, {
      fileKey: ticket.fileKey,
      userId,
      institutionId: query.institutionId,
      size: query.size,
    });
    return { ...ticket, expiresAt: ticket.expiresAt.toISOString() };
  });

  app.post('/api/files', async (request, reply) => {
    const { userId } = getAuth(request);
    const body = registerFileBody.parse(request.body);
    const { file, created } = await registerFile(deps, userId, body);
    return reply.code(created ? 201 : 200).send({ file });
  });

  app.put('/api/files/:id', async (request) => {
    const { userId } = getAuth(request);
    const params = fileParams.parse(request.params);
    const body = updateFileBody.parse(request.body);
    return { file: await updateFile(deps, userId, params.id, body) };
  });

  app.delete('/api/files', async (request) => {
    const { userId } = getAuth(request);
    const body = deleteFilesBody.parse(request.body);
    return { fileIds: await deleteFiles(deps, userId, body.fileIds) };
  });

  app.get('/api/institutions/:id/files', async (request) => {
    const { userId } = getAuth(request);
    const params = fileParams.parse(request.params);
    const query = filesQuery.parse(request.query);
    await requireMember(ctx.db, params.id, userId);
    return listFiles(ctx.db, userId, params.id, query);
  });

  // Bearer token like every other route (docs/decisions/0007-file-downloads.md): the client fetches the
  // bytes and shows them through an object URL.
  app.get('/api/files/:id/content', async (request, reply) => {
    const { userId } = getAuth(request);
    const params = fileParams.parse(request.params);
    const file = await readableFile(ctx.db, userId, params.id);
    if (file.isFromThirdParty && file.fileUrl) return reply.redirect(file.fileUrl);
    if (!file.fileKey) throw new HttpError(404, 'File not found');
    const headers = downloadHeaders(file.fileName, file.fileType);
    const s3Url = store.downloadUrl(
      file.fileKey,
      {
        contentType: headers['content-type'] ?? '',
        contentDisposition: headers['content-disposition'] ?? '',
      },
      new Date(),
    );
    if (s3Url) return reply.redirect(s3Url);
    const size = await store.storedSize(file.fileKey);
    if (typeof size !== 'number' || !store.local) throw new HttpError(404, 'This file has not been uploaded');
    return reply.headers({ ...headers, 'content-length': String(size) }).send(store.local.read(file.fileKey));
  });

  const fileExcerpt = createExcerpts({ ...deps, documents: ctx.documents, maxFileBytes: maxBytes });
  app.get('/api/files/:id/excerpt', async (request) => {
    const { userId } = getAuth(request);
    const params = fileParams.parse(request.params);
    return { excerpt: await fileExcerpt(userId, params.id) };
  });

  // The upload takes raw bytes of any content type, so it lives in its own scope with a pass-through
  // parser: the handler reads the request stream itself and stops at the limit.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.put('/api/files/upload/:fileKey', { config: { readsItsBody: true } }, async (request, reply) => {
      try {
        const local = store.local;
        if (!local) throw new HttpError(404, 'Uploads go to the configured S3 store');
        const { fileKey } = uploadParams.parse(request.params);
        const query = uploadQuery.parse(request.query);
        if (!verifyUpload(ctx.secrets.fileSigningKey, { fileKey, ...query }, query.signature))
          throw new HttpError(403, 'This upload address is not valid');
        if (query.expires < Date.now()) throw new HttpError(403, 'This upload address has expired');
        if (query.size > maxBytes) throw new HttpError(413, `Files can be at most ${maxBytes} bytes`);
        const declared = request.headers['content-length'];
        if (declared !== undefined && Number(declared) > query.size)
          throw new HttpError(413, `This upload address takes at most ${query.size} bytes`);
        await local.write(fileKey, request.raw, query.size, query.size);
        return reply.code(201).send({ fileKey });
      } catch (err) {
        return refuseUpload(reply, err);
      }
    });
  });
}

/**
 * A refused upload answers at once and closes the connection, so a client still sending a large body is
 * cut off instead of having the rest of it read and thrown away.
 */
function refuseUpload(reply: FastifyReply, err: unknown) {
  const status = err instanceof HttpError ? err.statusCode : err instanceof z.ZodError ? 400 : 500;
  const message =
    err instanceof HttpError ? err.message : status === 400 ? 'Invalid upload address' : 'Upload failed';
  if (status === 500) reply.log.error({ err }, 'upload failed');
  return reply
    .code(status)
    .header('connection', 'close')
    .send({
      statusCode: status,
      error: status === 413 ? 'Payload Too Large' : 'Upload refused',
      message,
      requestId: reply.request.id,
    });
}
