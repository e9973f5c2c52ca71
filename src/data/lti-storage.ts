// LTI Client Side postMessages (platform storage): a tool framed by a platform that offers
// `lti_storage_target` reads back what its login page put there, without cookies. Used for the login's
// state, which proves that this browser started the launch.

export interface PlatformStorage {
  /** `_parent`, or the name of a frame of the parent page. */
  target: string;
  /** The platform origin that answers (its authorization endpoint's). */
  origin: string;
  key: string;
}

/** Time allowed for the platform's answer. */
const ANSWER_TIMEOUT_MS = 3_000;

/** The value stored under the key, or null when there is no platform frame or it does not answer. */
export function readPlatformStorage(storage: PlatformStorage): Promise<string | null> {
  if (window.parent === window) return Promise.resolve(null);
  let frame: Window | null = null;
  try {
    frame =
      storage.target === '_parent'
        ? window.parent
        : ((window.parent.frames as unknown as Record<string, Window | undefined>)[storage.target] ?? null);
  } catch {
    frame = null;
  }
  if (!frame) return Promise.resolve(null);
  const messageId = crypto.randomUUID();
  return new Promise((resolve) => {
    const done = (value: string | null) => {
      window.removeEventListener('message', onMessage);
      clearTimeout(timer);
      resolve(value);
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { subject?: unknown; message_id?: unknown; value?: unknown } | null;
      if (
        event.origin !== storage.origin ||
        data?.subject !== 'lti.get_data.response' ||
        data.message_id !== messageId
      )
        return;
      done(typeof data.value === 'string' ? data.value : null);
    };
    const timer = setTimeout(() => done(null), ANSWER_TIMEOUT_MS);
    window.addEventListener('message', onMessage);
    frame.postMessage({ subject: 'lti.get_data', message_id: messageId, key: storage.key }, storage.origin);
  });
}
