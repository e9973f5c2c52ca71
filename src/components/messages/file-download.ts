// A download a person asked for, and what it tells them. The bytes come through the data layer before the
// browser's own download starts (file-fetch.ts, decision 0007), so on a slow connection nothing would show
// for as long as they take: after a moment a loading toast names the file and stays until they are in
// (spec §4: a loading toast never closes by itself). A failure takes its place, 'Failed to fetch file'
// with the status text (spec §8).
import { toast } from '../../app/toast.ts';
import { downloadFile } from './file-fetch.ts';

/** A download quicker than this says nothing: a notice that flashes and goes is noise. */
export const DOWNLOAD_NOTICE_AFTER_MS = 500;

/** Downloads the file; resolves once the browser has it or the failure was shown (never rejects). */
export async function downloadWithNotice(url: string, fileName: string): Promise<void> {
  const id = `download:${url}`;
  let noticed = false;
  const timer = setTimeout(() => {
    noticed = true;
    toast.loading(`Downloading ${fileName}…`, { id });
  }, DOWNLOAD_NOTICE_AFTER_MS);
  try {
    await downloadFile(url, fileName);
    if (noticed) toast.dismiss(id);
  } catch (error) {
    const message = error instanceof Error ? error.message : 'Failed to fetch file';
    toast.error(message, noticed ? { id } : undefined);
  } finally {
    clearTimeout(timer);
  }
}
