// Sends one queued sidebar change (issue 3 item 10) over REST. Every call is safe to replay, so a
// change whose answer was lost is simply sent again; the outcome is classified like a message ack.
import type { OutboxDoc, SectionOperation } from '../schemas/collections.ts';
import type { Section } from '../schemas/protocol.ts';
import { ApiError, type Http } from '../src/data/http.ts';
import { institutionPath, listOf } from '../src/data/workspace-store.ts';
import type { SendResult } from '../src/store/outbox-state.ts';

/** Statuses worth another try later: the request may not have been handled. */
const RETRYABLE = new Set([408, 425, 429]);

export async function sendSectionOperation(
  http: Http,
  entry: OutboxDoc,
  op: SectionOperation,
): Promise<SendResult> {
  const sections = `${institutionPath(entry.institutionId)}/channels/sections`;
  const one = (id: string) => `${sections}/${encodeURIComponent(id)}`;
  try {
    let body: unknown;
    switch (op.kind) {
      case 'sectionCreate':
        body = await http.post(sections, { id: op.sectionId, name: op.name, channels: op.channels });
        break;
      case 'sectionRename':
        body = await http.put(one(op.sectionId), { name: op.name });
        break;
      case 'sectionDelete':
        body = await http.del(one(op.sectionId));
        break;
      case 'sectionsReorder':
        body = await http.put(`${sections}/reorder`, { sectionIds: op.sectionIds });
        break;
      case 'sectionsLayout':
        body = await http.put(sections, { sections: op.sections });
        break;
    }
    return { kind: 'applied', sections: layoutOf(body) };
  } catch (error) {
    if (!(error instanceof ApiError)) return { kind: 'transient', reason: String(error) };
    // A replayed delete of a section that is already gone did what it meant to.
    if (op.kind === 'sectionDelete' && error.status === 404) return { kind: 'applied', sections: null };
    if (error.status >= 500 || RETRYABLE.has(error.status))
      return { kind: 'transient', reason: error.message };
    return { kind: 'error', message: error.message };
  }
}

function layoutOf(body: unknown): Section[] | null {
  if (
    Array.isArray(body) ||
    (body && typeof body === 'object' && Array.isArray((body as { data?: unknown }).data))
  )
    return listOf(body as Section[] | { data: Section[] });
  return null;
}
