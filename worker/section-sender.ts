// Sends one queued sidebar change over REST. Every call is safe to replay, so a
// change whose answer was lost is simply sent again; the outcome is classified like a message ack.
import type { OutboxDoc, SectionOperation } from '../schemas/collections.ts';
import type { Section } from '../schemas/protocol/index.ts';
import { ApiError, type Http } from '../src/store/http.ts';
import type { SendResult } from '../src/store/outbox-state.ts';

/** Statuses worth another try later: the request may not have been handled. */
const RETRYABLE = new Set([408, 425, 429]);

export async function sendSectionOperation(
  http: Http,
  entry: OutboxDoc,
  op: SectionOperation,
): Promise<SendResult> {
  const params = { id: entry.institutionId };
  try {
    let answer: { data: Section[] };
    switch (op.kind) {
      case 'sectionCreate':
        answer = await http.call('createSection', {
          params,
          body: { id: op.sectionId, name: op.name, channels: op.channels },
        });
        break;
      case 'sectionRename':
        answer = await http.call('updateSection', {
          params: { ...params, sectionId: op.sectionId },
          body: { name: op.name },
        });
        break;
      case 'sectionDelete':
        answer = await http.call('deleteSection', { params: { ...params, sectionId: op.sectionId } });
        break;
      case 'sectionsReorder':
        answer = await http.call('reorderSections', { params, body: { sectionIds: op.sectionIds } });
        break;
      case 'sectionsLayout':
        answer = await http.call('replaceSections', { params, body: { sections: op.sections } });
        break;
    }
    return { kind: 'applied', sections: answer.data };
  } catch (error) {
    if (!(error instanceof ApiError)) return { kind: 'transient', reason: String(error) };
    // A replayed delete of a section that is already gone did what it meant to.
    if (op.kind === 'sectionDelete' && error.status === 404) return { kind: 'applied', sections: null };
    if (error.status >= 500 || RETRYABLE.has(error.status))
      return { kind: 'transient', reason: error.message };
    return { kind: 'error', message: error.message };
  }
}
