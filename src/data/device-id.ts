// The device id (spec §3 sessionClientId): a SHA-256 of a few traits of this browser, so Settings → Devices
// can tell "the same device signed in twice" from two devices. Only coarse traits a page sees anyway
// (user agent, platform, screen, time zone, languages, cores), nothing from canvas, audio or fonts, and it
// is never stored: it is not a tracking identifier beyond what the spec needs (decision 0029).
// Gathering may hang in odd embedders, so each attempt has 1 s and there are 3 retries (spec §9).

export const DEVICE_ID_TIMEOUT_MS = 1000;
export const DEVICE_ID_RETRIES = 3;

interface Traits {
  userAgent: string;
  platform: string;
  screen: string;
  timeZone: string;
  languages: string;
  cores: number;
}

/** User-agent client hints where offered (the platform without the frozen user-agent string), else navigator. */
async function platformOf(): Promise<string> {
  const hints = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData;
  return hints?.platform || navigator.platform || '';
}

async function gatherTraits(): Promise<Traits> {
  return {
    userAgent: navigator.userAgent,
    platform: await platformOf(),
    // Screen size, not window size: resizing a window is still the same device.
    screen: `${screen.width}x${screen.height}@${window.devicePixelRatio || 1}`,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone ?? '',
    languages: (navigator.languages ?? [navigator.language]).join(','),
    cores: navigator.hardwareConcurrency || 0,
  };
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('device id timed out')), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/**
 * Computes the id: one attempt and up to DEVICE_ID_RETRIES more, each bounded by `timeoutMs`. Null when
 * every attempt failed (no crypto.subtle outside a secure context): the session then simply has none.
 */
export async function computeDeviceId(
  gather: () => Promise<Traits> = gatherTraits,
  timeoutMs = DEVICE_ID_TIMEOUT_MS,
): Promise<string | null> {
  for (let attempt = 0; attempt <= DEVICE_ID_RETRIES; attempt++) {
    try {
      return await withTimeout(
        gather().then((traits) => sha256Hex(JSON.stringify(traits))),
        timeoutMs,
      );
    } catch {
      // Try again; the last failure gives up quietly.
    }
  }
  return null;
}

let cached: Promise<string | null> | null = null;

/** This device's id, computed once per page. */
export function deviceId(): Promise<string | null> {
  if (typeof window === 'undefined' || !globalThis.crypto?.subtle) return Promise.resolve(null);
  cached ??= computeDeviceId();
  return cached;
}
