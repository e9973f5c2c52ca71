import type { StoredLinkPreview } from '../../schemas/collections.ts';
import type { LinkPreview } from '../../schemas/protocol/index.ts';
import { ApiError } from '../store/http.ts';
import { putRecord } from '../store/records.ts';
import { requireClient } from './client.ts';
import { useStoreRead } from './store-reads.ts';

/** A preview is asked again after this long (a page's title changes); a failed one sooner. */
const FRESH_MS = 24 * 60 * 60 * 1000;
const FAILED_FRESH_MS = 60 * 60 * 1000;

/** A short, stable id of an address (cyrb53): record keys are at most 100 characters, addresses are not. */
export function linkPreviewId(url: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < url.length; i++) {
    const ch = url.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}

/** Whether the workspace shows previews (on unless an admin switched them off); undefined while loading. */
export function useLinkPreviewsEnabled(institutionId: string): boolean | undefined {
  return useStoreRead('linkPreviewsEnabled', { institutionId });
}

/** The stored preview of an address: undefined while reading the store, null when none is stored. */
export function useStoredLinkPreview(url: string | null): StoredLinkPreview | null | undefined {
  return useStoreRead('record', { kind: 'linkPreview', id: url ? linkPreviewId(url) : '' }) as
    | StoredLinkPreview
    | null
    | undefined;
}

export const isStale = (stored: StoredLinkPreview, now = Date.now()): boolean =>
  now - stored.fetchedAt > (stored.preview ? FRESH_MS : FAILED_FRESH_MS);

const asking = new Set<string>();

/**
 * Asks the server for the preview and stores the answer. Offline, or when the workspace switched previews
 * off meanwhile, nothing is stored (what was stored stays, and the switch hides it).
 */
export async function fetchLinkPreview(institutionId: string, url: string): Promise<void> {
  const id = linkPreviewId(url);
  if (asking.has(id)) return;
  asking.add(id);
  try {
    const { http, db } = await requireClient();
    let preview: LinkPreview | null;
    try {
      preview = (
        await http.call('linkPreview', { params: { id: institutionId }, query: new URLSearchParams({ url }) })
      ).preview;
    } catch (error) {
      // A 400 (an address the server will not fetch) is an answer: remembered like a page without a card.
      if (!(error instanceof ApiError) || error.status !== 400) return;
      preview = null;
    }
    await putRecord(
      db,
      'linkPreview',
      { id, url, preview, fetchedAt: Date.now() },
      { scope: institutionId, institutionId },
    );
  } finally {
    asking.delete(id);
  }
}

/** Admins: previews on or off for everyone in the workspace. */
export async function setLinkPreviews(institutionId: string, enabled: boolean): Promise<void> {
  const { http, db } = await requireClient();
  const res = await http.call('linkPreviewSetting', {
    params: { id: institutionId },
    body: { linkPreviews: enabled },
  });
  const doc = await db.institutions.findOne(institutionId).exec();
  await doc?.incrementalPatch({ linkPreviews: res.linkPreviews });
}
