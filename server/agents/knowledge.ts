// An agent's knowledge sources: text or an uploaded file turned into text, split into passages and stored
// for full-text search. A source is written as 'processing' first, so a failure leaves a 'failed' record
// with its reason rather than nothing.
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type createKnowledgeSourceBody,
  KNOWLEDGE_SOURCE_MAX_CHARS,
  KNOWLEDGE_SOURCES_PER_AGENT,
  type KnowledgeSource,
} from '../../schemas/protocol.ts';
import type { Db } from '../db/client.ts';
import { knowledgeChunks, knowledgeSources } from '../db/schema.ts';
import { badRequest, HttpError, notFound } from '../errors.ts';
import type { FileStore } from '../files/file-store.ts';
import { readableFile } from '../files/files.ts';
import { splitIntoChunks } from './chunking.ts';
import { extractDocumentText, UnsupportedDocument } from './extract.ts';

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
async function readFileText(
  db: Db,
  store: FileStore,
  userId: string,
  fileId: string,
  maxBytes: number,
): Promise<{ title: string; read: () => Promise<string> }> {
  const file = await readableFile(db, userId, fileId);
  if (!file.fileKey || !store.local || file.isUploading || file.uploadFailed)
    throw badRequest('This file has not been uploaded to the server');
  if (file.fileSize > maxBytes) throw tooLarge();
  const local = store.local;
  const key = file.fileKey;
  return {
    title: file.fileName,
    read: async () => {
      const parts: Buffer[] = [];
      for await (const part of local.read(key)) parts.push(part as Buffer);
      return extractDocumentText(Buffer.concat(parts), file.fileName, file.fileType);
    },
  };
}

export interface KnowledgeDeps {
  db: Db;
  store: FileStore;
  /** Largest uploaded file read as a source (bytes). */
  maxFileBytes: number;
}

export async function addKnowledgeSource(
  deps: KnowledgeDeps,
  userId: string,
  agentId: string,
  input: CreateKnowledgeSourceInput,
): Promise<KnowledgeSource> {
  const { db } = deps;
  if (input.type === 'url') throw badRequest('URL knowledge sources are not supported yet');
  const [existing] = await db
    .select({ n: count() })
    .from(knowledgeSources)
    .where(eq(knowledgeSources.agentId, agentId));
  if ((existing?.n ?? 0) >= KNOWLEDGE_SOURCES_PER_AGENT)
    throw badRequest(`An agent can have at most ${KNOWLEDGE_SOURCES_PER_AGENT} knowledge sources`);
  if (input.type === 'text' && input.text.length > KNOWLEDGE_SOURCE_MAX_CHARS) throw tooLarge();

  const document =
    input.type === 'text'
      ? { title: input.title, read: async () => input.text }
      : await readFileText(db, deps.store, userId, input.fileId, deps.maxFileBytes);
  const title = input.title ?? document.title;

  const [source] = await db
    .insert(knowledgeSources)
    .values({ id: randomUUID(), agentId, type: input.type, title, status: 'processing' })
    .returning();
  if (!source) throw new Error('knowledge source insert returned nothing');
  return ingest(db, source, document.read);
}

async function ingest(db: Db, source: SourceRow, read: () => Promise<string>): Promise<KnowledgeSource> {
  let text: string;
  try {
    text = await read();
  } catch (err) {
    const reason =
      err instanceof UnsupportedDocument ? err.message : 'The document could not be read (is it damaged?)';
    return finish(db, source.id, { status: 'failed', error: reason });
  }
  if (text.length > KNOWLEDGE_SOURCE_MAX_CHARS) {
    await db.delete(knowledgeSources).where(eq(knowledgeSources.id, source.id));
    throw tooLarge();
  }
  const chunks = splitIntoChunks(text);
  if (chunks.length === 0)
    return finish(db, source.id, { status: 'failed', error: 'The document has no text' });
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
  return finish(db, source.id, { status: 'ready', size: text.length, chunkCount: chunks.length });
}

async function finish(
  db: Db,
  sourceId: string,
  values: Partial<Pick<SourceRow, 'status' | 'error' | 'size' | 'chunkCount'>>,
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
