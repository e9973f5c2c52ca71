// Fetching an attachment's bytes for a preview or a download (decision 0007: files are served with the
// bearer token, so they are fetched and shown through object URLs). Downloads revoke their temporary
// URL after 100 ms (spec §7); a failed fetch says "Failed to fetch file {status text}".
import { useEffect, useState } from 'react';
import { useSession } from '../../data/hooks.ts';

export class FileFetchError extends Error {}

export async function fetchFileBlob(url: string, token: string | null): Promise<Blob> {
  const sameOrigin = url.startsWith('/') || url.startsWith(window.location.origin);
  const res = await fetch(url, {
    headers: sameOrigin && token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok) throw new FileFetchError(`Failed to fetch file ${res.statusText || res.status}`);
  return await res.blob();
}

export const REVOKE_AFTER_MS = 100;

export async function downloadFile(url: string, fileName: string, token: string | null): Promise<void> {
  let blob: Blob;
  try {
    blob = await fetchFileBlob(url, token);
  } catch (error) {
    if (error instanceof FileFetchError) throw error;
    throw new FileFetchError(`Failed to fetch file ${error instanceof Error ? error.message : ''}`.trim());
  }
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), REVOKE_AFTER_MS);
}

/** An object URL of the file's bytes while mounted (null while loading, 'error' when it failed). */
export function useFileObjectUrl(url: string | null): string | null | 'error' {
  const session = useSession();
  const token = session?.token ?? null;
  const [state, setState] = useState<{ url: string | null; value: string | null | 'error' }>({
    url: null,
    value: null,
  });
  useEffect(() => {
    if (!url || session === undefined) return;
    let live = true;
    let objectUrl: string | null = null;
    fetchFileBlob(url, token)
      .then((blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob);
        setState({ url, value: objectUrl });
      })
      .catch(() => live && setState({ url, value: 'error' }));
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url, token, session]);
  return state.url === url ? state.value : null;
}
