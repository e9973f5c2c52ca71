// Every request the tool makes to a platform (its key set, token, roster and registration endpoints) goes
// through server/outbound/: the addresses were typed by a workspace admin (or read from a platform the
// admin named), so private addresses are refused unless the operator set LTI_ALLOW_PRIVATE.
import type { Config } from '../config.ts';
import { RefusedAddress } from '../outbound/address-guard.ts';
import { outboundFetch } from '../outbound/outbound-request.ts';

/** Time allowed for one request to a platform. */
const PLATFORM_TIMEOUT_MS = 10_000;
/** Largest answer read from a platform (a key set, a roster page, a configuration). */
const PLATFORM_MAX_BYTES = 2 * 1024 * 1024;

/** A platform answered badly or could not be reached; the message is safe to show to the admin. */
export class PlatformRequestError extends Error {
  override name = 'PlatformRequestError';
}

export interface PlatformAnswer {
  status: number;
  headers: Headers;
  json: unknown;
}

/** One request; the answer's JSON body (null when it is not JSON), bounded in time and size. */
export async function platformRequest(
  config: Pick<Config, 'LTI_ALLOW_PRIVATE'>,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<PlatformAnswer> {
  const fetch = outboundFetch({ allowPrivate: config.LTI_ALLOW_PRIVATE });
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'follow', signal: AbortSignal.timeout(PLATFORM_TIMEOUT_MS) });
  } catch (err) {
    if (err instanceof RefusedAddress) throw new PlatformRequestError(`${new URL(url).host}: ${err.message}`);
    throw new PlatformRequestError(`${new URL(url).host} could not be reached`);
  }
  const text = await readBounded(res);
  let json: unknown = null;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json };
}

async function readBounded(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > PLATFORM_MAX_BYTES) {
      await reader.cancel();
      throw new PlatformRequestError('The platform answered with more data than a platform sends');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
