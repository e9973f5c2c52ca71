// How this server reads documents' text (knowledge sources, and the excerpt under a Word or PowerPoint
// attachment): the limits of each worker thread and one set of slots for all of them, so
// KNOWLEDGE_EXTRACT_CONCURRENCY bounds every reader together, whichever route asked.
import type { Config } from '../config.ts';
import { type ExtractionLimits, extractDocumentInWorker } from './extraction.ts';
import { Slots } from './slots.ts';

export interface DocumentReading {
  limits: ExtractionLimits;
  slots: Slots;
}

export function documentReading(config: Config): DocumentReading {
  return {
    limits: {
      maxHeapMb: config.KNOWLEDGE_EXTRACT_MAX_MB,
      timeoutMs: config.KNOWLEDGE_EXTRACT_TIMEOUT_MS,
      maxUnpackedBytes: config.KNOWLEDGE_MAX_UNCOMPRESSED_BYTES,
    },
    slots: new Slots(config.KNOWLEDGE_EXTRACT_CONCURRENCY),
  };
}

/** An uploaded document's text, read in a worker thread once a slot is free. */
export function readDocument(
  reading: DocumentReading,
  bytes: Buffer,
  fileName: string,
  fileType: string,
): Promise<string> {
  return reading.slots.withSlot('documents', () =>
    extractDocumentInWorker(bytes, fileName, fileType, reading.limits),
  );
}
