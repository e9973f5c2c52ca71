// Showing and downloading an attachment's bytes (decision 0007: files are served with the bearer token,
// so their bytes come from the data layer's fetchFile and are shown through object URLs). Downloads
// revoke their temporary URL after 100 ms (spec §7); a failed fetch says "Failed to fetch file {status text}".
import { useEffect, useState } from 'react';
import { fetchFile } from '../../data/files.ts';

export const REVOKE_AFTER_MS = 100;

export async function downloadFile(url: string, fileName: string): Promise<void> {
  const blob = await fetchFile(url);
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
  const [state, setState] = useState<{ url: string | null; value: string | null | 'error' }>({
    url: null,
    value: null,
  });
  useEffect(() => {
    if (!url) return;
    let live = true;
    let objectUrl: string | null = null;
    fetchFile(url)
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
  }, [url]);
  return state.url === url ? state.value : null;
}
