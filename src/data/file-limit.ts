// The largest file the server takes, as its run-time configuration says (GET /api/client-config,
// FILE_MAX_BYTES): the composer refuses a larger file at once, naming the limit, instead of uploading
// it to have it refused. Until the configuration has answered (or when it cannot, offline) the default
// from schemas/ stands in; the server still checks every upload itself. The read is the page's one
// (src/app/client-config.ts), shared with error reporting and the refresh-failure notices.
import { FILE_MAX_BYTES_DEFAULT } from '../../schemas/protocol/files.ts';
import { clientConfig } from '../app/client-config.ts';

/** The server's limit in bytes, from the page's one configuration read (asked again after a failed one). */
export function fileMaxBytes(): Promise<number> {
  return clientConfig().then(
    (config) => config.fileMaxBytes,
    () => FILE_MAX_BYTES_DEFAULT,
  );
}

/** Splits chosen files into those the server would take and those it would refuse for their size. */
export function partitionBySize<F extends { size: number }>(
  files: readonly F[],
  maxBytes: number,
): { accepted: F[]; tooLarge: F[] } {
  const accepted: F[] = [];
  const tooLarge: F[] = [];
  for (const f of files) (f.size > maxBytes ? tooLarge : accepted).push(f);
  return { accepted, tooLarge };
}
