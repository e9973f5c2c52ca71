// The worker thread that reads one document's text (started by extraction.ts with a heap cap and a time
// limit): checks a Word or PowerPoint archive before unpacking it, extracts, and posts the text or the reason it was
// refused. Anything else that goes wrong simply ends the thread; the server stays untouched either way.
import { parentPort, workerData } from 'node:worker_threads';
import { checkArchive } from './document-archive.ts';
import { type DocumentKind, extractKindText } from './extract.ts';
import { UnsupportedDocument } from './unsupported-document.ts';

export interface ExtractionJob {
  bytes: Uint8Array;
  kind: DocumentKind;
  charset: string | null;
  maxUnpackedBytes: number;
}

export type ExtractionReply = { text: string } | { refused: string } | { failed: true };

async function run(job: ExtractionJob): Promise<ExtractionReply> {
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  try {
    if (job.kind === 'docx') checkArchive(bytes, job.maxUnpackedBytes, 'Word document');
    if (job.kind === 'pptx') checkArchive(bytes, job.maxUnpackedBytes, 'presentation');
    return { text: await extractKindText(bytes, job.kind, job.charset) };
  } catch (err) {
    return err instanceof UnsupportedDocument ? { refused: err.message } : { failed: true };
  }
}

parentPort?.postMessage(await run(workerData as ExtractionJob));
