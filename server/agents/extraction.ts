// Reading a document's text off the main thread: every upload is extracted in its own worker thread
// (extraction-worker.ts) with a heap cap (KNOWLEDGE_EXTRACT_MAX_MB) and a time limit
// (KNOWLEDGE_EXTRACT_TIMEOUT_MS, counted from the start of the thread). A document that exceeds either, or
// crashes its parser, costs only that thread: the caller gets an UnsupportedDocument with a plain reason.
import { Worker } from 'node:worker_threads';
import { type DocumentKind, documentKind, SUPPORTED_DOCUMENTS } from './extract.ts';
import type { ExtractionJob, ExtractionReply } from './extraction-worker.ts';
import { UnsupportedDocument } from './unsupported-document.ts';

export interface ExtractionLimits {
  /** Old-generation heap of the thread, in MB. */
  maxHeapMb: number;
  timeoutMs: number;
  /** Largest total an archive (.docx) may unpack to, in bytes. */
  maxUnpackedBytes: number;
}

const WORKER_ENTRY = new URL('./extraction-worker.mjs', import.meta.url);

const DAMAGED = 'The document could not be read (is it damaged?)';

/**
 * A thread's heap cap holds for many small allocations, but one allocation beyond the cap (a whole
 * document decoded into one string) can abort the whole process instead (nodejs/node#47224). Documents
 * are therefore kept well under the cap: at most a quarter of it in bytes (UTF-16 doubles them once).
 */
const HEAP_SHARE = 4;

/** The text of a document of a known kind, read in a worker thread within the limits. */
export function extractInWorker(
  bytes: Buffer,
  kind: DocumentKind,
  charset: string | null,
  limits: ExtractionLimits,
): Promise<string> {
  if (bytes.length * HEAP_SHARE > limits.maxHeapMb * 1024 * 1024)
    return Promise.reject(
      new UnsupportedDocument(
        `The document is too large to read within the ${limits.maxHeapMb} MB of memory this server allows`,
      ),
    );
  // A copy the thread owns outright (transferred, not cloned): the request's buffer may be a pooled slice.
  const own = new Uint8Array(bytes);
  const job: ExtractionJob = { bytes: own, kind, charset, maxUnpackedBytes: limits.maxUnpackedBytes };
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_ENTRY, {
      workerData: job,
      transferList: [own.buffer],
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb },
      // Its output is of no use to the operator and must not reach the server's own streams.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new UnsupportedDocument(
              `Reading the document took longer than the ${Math.round(limits.timeoutMs / 1000)} s this server allows`,
            ),
          ),
        ),
      limits.timeoutMs,
    );
    worker.on('message', (reply: ExtractionReply) =>
      settle(() => {
        if ('text' in reply) resolve(reply.text);
        else reject(new UnsupportedDocument('refused' in reply ? reply.refused : DAMAGED));
      }),
    );
    worker.on('error', (err: Error & { code?: string }) =>
      settle(() =>
        reject(
          new UnsupportedDocument(
            err.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? `Reading the document needed more than the ${limits.maxHeapMb} MB of memory this server allows`
              : DAMAGED,
          ),
        ),
      ),
    );
    worker.on('exit', () => settle(() => reject(new UnsupportedDocument(DAMAGED))));
  });
}

/** The text of an uploaded document, from its name and media type, read in a worker thread. */
export function extractDocumentInWorker(
  bytes: Buffer,
  fileName: string,
  fileType: string,
  limits: ExtractionLimits,
): Promise<string> {
  const kind = documentKind(fileName, fileType);
  if (!kind) return Promise.reject(new UnsupportedDocument(`Only ${SUPPORTED_DOCUMENTS} files can be read`));
  return extractInWorker(bytes, kind, null, limits);
}
