// The opening text of a Word or PowerPoint attachment, shown on its card in place of a bare icon (issue 15
// item 6; spec §9 lists both as previewable). Read in a worker thread like a knowledge source, within the
// same limits and slots, only for someone who may read the file, and remembered: a file's bytes never
// change, so its excerpt is read once per server.
import { type DocumentReading, readDocument } from '../agents/document-reading.ts';
import { documentKind } from '../agents/extract.ts';
import { UnsupportedDocument } from '../agents/unsupported-document.ts';
import type { Db } from '../db/client.ts';
import type { FileStore } from './file-store.ts';
import { readableFile } from './files.ts';

/** About three lines of a card. */
export const EXCERPT_MAX_CHARS = 280;
/** Excerpts remembered per server, the oldest forgotten first. */
const REMEMBERED = 500;

/** The first `max` characters of `text`, whitespace collapsed, cut at a word with an ellipsis; null if empty. */
export function excerptOf(text: string, max: number = EXCERPT_MAX_CHARS): string | null {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return null;
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

export interface ExcerptDeps {
  db: Db;
  store: FileStore;
  documents: DocumentReading;
  /** Largest file read for an excerpt (the upload limit). */
  maxFileBytes: number;
  log?: { warn(obj: unknown, msg?: string): void };
}

export function createExcerpts(deps: ExcerptDeps) {
  const remembered = new Map<string, string | null>();
  const remember = (key: string, excerpt: string | null) => {
    remembered.delete(key);
    remembered.set(key, excerpt);
    if (remembered.size > REMEMBERED) remembered.delete(remembered.keys().next().value ?? '');
    return excerpt;
  };

  return async function fileExcerpt(userId: string, fileId: string): Promise<string | null> {
    // Who may read the file may read its excerpt; anyone else gets the same 404 as for its bytes.
    const file = await readableFile(deps.db, userId, fileId);
    const kind = documentKind(file.fileName, file.fileType);
    if (kind !== 'docx' && kind !== 'pptx') return null;
    const local = deps.store.local;
    if (!file.fileKey || !local || file.isUploading || file.uploadFailed) return null;
    if (file.fileSize > deps.maxFileBytes) return null;
    const key = `${file.id}:${file.fileKey}`;
    if (remembered.has(key)) return remember(key, remembered.get(key) ?? null);
    const parts: Buffer[] = [];
    for await (const part of local.read(file.fileKey)) parts.push(part as Buffer);
    try {
      const text = await readDocument(deps.documents, Buffer.concat(parts), file.fileName, file.fileType);
      return remember(key, excerptOf(text));
    } catch (error) {
      // A damaged or hostile document has no excerpt; its card stays a plain file card.
      if (!(error instanceof UnsupportedDocument)) deps.log?.warn({ err: error, fileId }, 'excerpt failed');
      return remember(key, null);
    }
  };
}
