// The largest file the server takes, as its run-time configuration says (GET /api/client-config,
// FILE_MAX_BYTES): the composer refuses a larger file at once, naming the limit, instead of uploading
// it to have it refused. Until the configuration has answered (or when it cannot, offline) the default
// from schemas/ stands in; the server still checks every upload itself.
import { clientConfigResponse } from '../../schemas/protocol/client-config.ts';
import { FILE_MAX_BYTES_DEFAULT } from '../../schemas/protocol/files.ts';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../schemas/protocol/version.ts';

let known: Promise<number> | null = null;

async function load(): Promise<number> {
  const res = await fetch('/api/client-config', { headers: { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) } });
  if (!res.ok) throw new Error(`client-config answered ${res.status}`);
  return clientConfigResponse.parse(await res.json()).fileMaxBytes;
}

/** The server's limit in bytes; asked once per page, and again after a failed ask. */
export function fileMaxBytes(): Promise<number> {
  if (!known)
    known = load().catch(() => {
      known = null;
      return FILE_MAX_BYTES_DEFAULT;
    });
  return known;
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
