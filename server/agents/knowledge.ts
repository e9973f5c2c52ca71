// An agent's knowledge sources: text, an uploaded file or a fetched web page turned into text, split into
// passages and stored for full-text search. A source is written as 'processing' first, so a failure leaves
// a 'failed' record with its reason rather than nothing. Reading happens within the request (a page fetch
// is bounded by KNOWLEDGE_URL_TIMEOUT_MS, a document's extraction runs in a worker thread with its own heap
// and time limits), so the answer carries the final status.
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type createKnowledgeSourceBody,
  KNOWLEDGE_SOURCE_MAX_CHARS,
  KNOWLEDGE_SOURCES_PER_AGENT,
  type KnowledgeSource,
} from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { knowledgeChunks, knowledgeSources } from '../db/schema.ts';
import { badRequest, HttpError, notFound } from '../errors.ts';
import type { FileStore } from '../files/file-store.ts';
import { readableFile } from '../files/files.ts';
import { splitIntoChunks } from './chunking.ts';
import { type ExtractionLimits, extractDocumentInWorker, extractInWorker } from './extraction.ts';
import type { Slots } from './slots.ts';
import { UnsupportedDocument } from './unsupported-document.ts';
import {
  checkSourceUrl,
  readUrlDocument,
  type TextExtractor,
  UrlFetchError,
  type UrlFetchOptions,
} from './url-source.ts';

type SourceRow = typeof knowledgeSources.$inferSelect;
export type CreateKnowledgeSourceInput = z.infer<typeof createKnowledgeSourceBody>;

export function toWireSource(row: SourceRow): KnowledgeSource {
  return {
    id: row.id,
    agentId: row.agentId,
    type: row.type,
    title: row.title,
    status: row.status,
    error: row.error,
    size: row.size,
    chunkCount: row.chunkCount,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listKnowledgeSources(db: Db, agentId: string): Promise<KnowledgeSource[]> {
  const rows = await db
    .select()
    .from(knowledgeSources)
    .where(eq(knowledgeSources.agentId, agentId))
    .orderBy(asc(knowledgeSources.createdAt));
  return rows.map(toWireSource);
}

const tooLarge = () =>
  new HttpError(413, `A knowledge source can hold at most ${KNOWLEDGE_SOURCE_MAX_CHARS} characters of text`);

/** The file's bytes from the server's own store, if the caller may read the file. */
async function readFileText(deps: KnowledgeDeps, userId: string, fileId: string): Promise<SourceDocument> {
  const file = await readableFile(deps.db, userId, fileId);
  const local = deps.store.local;
  if (!file.fileKey || !local || file.isUploading || file.uploadFailed)
    throw badRequest('This file has not been uploaded to the server');
  if (file.fileSize > deps.maxFileBytes) throw tooLarge();
  const key = file.fileKey;
  return {
    title: file.fileName,
    read: async () => {
      const parts: Buffer[] = [];
      for await (const part of local.read(key)) parts.push(part as Buffer);
      const bytes = Buffer.concat(parts);
      return { text: await extractUpload(deps, bytes, file.fileName, file.fileType) };
    },
  };
}

/** A source's title before reading, and how to read it (a page may name itself by its <title>). */
interface SourceDocument {
  title: string;
  read: () => Promise<{ text: string; title?: string }>;
}

export interface KnowledgeDeps {
  db: Db;
  store: FileStore;
  /** Largest uploaded file read as a source (bytes). */
  maxFileBytes: number;
  /** Limits of fetching URL sources. */
  url: UrlFetchOptions;
  /** Limits of reading a document's text (worker heap, time, unpacked archive size). */
  extraction: ExtractionLimits;
  /** How many documents this server reads at once (KNOWLEDGE_EXTRACT_CONCURRENCY): each thread has a heap. */
  extractions: Slots;
}

/** A document's text, read in a worker thread once one of the server's extraction slots is free. */
function extractUpload(deps: KnowledgeDeps, bytes: Buffer, fileName: string, fileType: string) {
  return deps.extractions.withSlot('documents', () =>
    extractDocumentInWorker(bytes, fileName, fileType, deps.extraction),
  );
}

/** A fetched page's text, read in a worker thread like an upload: a hostile page costs only that thread. */
function extractFetched(deps: KnowledgeDeps): TextExtractor {
  return (bytes, kind, charset) =>
    deps.extractions.withSlot('documents', () => extractInWorker(bytes, kind, charset, deps.extraction));
}

function urlDocument(raw: string, title: string | undefined, deps: KnowledgeDeps): SourceDocument {
  const options = deps.url;
  const url = checkSourceUrl(raw, options.allowPrivate);
  const given = title?.trim() || undefined;
  return {
    title: given ?? url.href.slice(0, 200),
    read: async () => {
      const page = await readUrlDocument(url, options, extractFetched(deps));
      return { text: page.text, title: given ?? page.title };
    },
  };
}

async function refuseOverLimit(db: Db, agentId: string): Promise<void> {
  const [existing] = await db
    .select({ n: count() })
    .from(knowledgeSources)
    .where(eq(knowledgeSources.agentId, agentId));
  if ((existing?.n ?? 0) >= KNOWLEDGE_SOURCES_PER_AGENT)
    throw badRequest(`An agent can have at most ${KNOWLEDGE_SOURCES_PER_AGENT} knowledge sources`);
}

export async function addKnowledgeSource(
  deps: KnowledgeDeps,
  userId: string,
  agentId: string,
  input: CreateKnowledgeSourceInput,
): Promise<KnowledgeSource> {
  const { db } = deps;
  await refuseOverLimit(db, agentId);
  if (input.type === 'text' && input.text.length > KNOWLEDGE_SOURCE_MAX_CHARS) throw tooLarge();

  const document: SourceDocument =
    input.type === 'text'
      ? { title: input.title, read: async () => ({ text: input.text }) }
      : input.type === 'url'
        ? urlDocument(input.url, input.title, deps)
        : await readFileText(deps, userId, input.fileId);
  const title = (input.type === 'file' && input.title) || document.title;
  return createSource(db, agentId, input.type, title, document.read);
}

export interface UploadedDocument {
  fileName: string;
  fileType: string;
  bytes: Buffer;
  title?: string | undefined;
}

/**
 * A document sent straight to the agent (the settings' upload): read from the request body, never stored
 * as a file, so it appears in no channel and is kept only as the source's text.
 */
export async function addUploadedKnowledgeSource(
  deps: KnowledgeDeps,
  agentId: string,
  upload: UploadedDocument,
): Promise<KnowledgeSource> {
  await refuseOverLimit(deps.db, agentId);
  const title = upload.title || upload.fileName;
  return createSource(deps.db, agentId, 'file', title, async () => ({
    text: await extractUpload(deps, upload.bytes, upload.fileName, upload.fileType),
  }));
}

async function createSource(
  db: Db,
  agentId: string,
  type: SourceRow['type'],
  title: string,
  read: SourceDocument['read'],
): Promise<KnowledgeSource> {
  const [source] = await db
    .insert(knowledgeSources)
    .values({ id: randomUUID(), agentId, type, title, status: 'processing' })
    .returning();
  if (!source) throw new Error('knowledge source insert returned nothing');
  return ingest(db, source, read);
}

async function ingest(db: Db, source: SourceRow, read: SourceDocument['read']): Promise<KnowledgeSource> {
  let text: string;
  let title = source.title;
  try {
    const document = await read();
    text = document.text;
    title = document.title ?? title;
  } catch (err) {
    const reason =
      err instanceof UnsupportedDocument || err instanceof UrlFetchError
        ? err.message
        : 'The document could not be read (is it damaged?)';
    return finish(db, source.id, { status: 'failed', error: reason });
  }
  if (text.length > KNOWLEDGE_SOURCE_MAX_CHARS) {
    await db.delete(knowledgeSources).where(eq(knowledgeSources.id, source.id));
    throw tooLarge();
  }
  const chunks = splitIntoChunks(text);
  if (chunks.length === 0)
    return finish(db, source.id, { status: 'failed', title, error: 'The document has no text' });
  await db.transaction(async (tx) => {
    await tx.insert(knowledgeChunks).values(
      chunks.map((content, position) => ({
        id: randomUUID(),
        sourceId: source.id,
        agentId: source.agentId,
        position,
        content,
      })),
    );
  });
  return finish(db, source.id, { status: 'ready', title, size: text.length, chunkCount: chunks.length });
}

async function finish(
  db: Db,
  sourceId: string,
  values: Partial<Pick<SourceRow, 'status' | 'title' | 'error' | 'size' | 'chunkCount'>>,
): Promise<KnowledgeSource> {
  const [row] = await db
    .update(knowledgeSources)
    .set(values)
    .where(eq(knowledgeSources.id, sourceId))
    .returning();
  if (!row) throw notFound('Knowledge source not found');
  return toWireSource(row);
}

/** Removes the source; its chunks go with it (foreign key cascade). */
export async function deleteKnowledgeSource(db: Db, agentId: string, sourceId: string): Promise<void> {
  const deleted = await db
    .delete(knowledgeSources)
    .where(and(eq(knowledgeSources.id, sourceId), eq(knowledgeSources.agentId, agentId)))
    .returning({ id: knowledgeSources.id });
  if (deleted.length === 0) throw notFound('Knowledge source not found');
}
