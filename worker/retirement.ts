// Retiring the worker of an older build (decision 0043). Workers are named by build id, so a page of a new
// build starts its own worker; without this the old one would keep its socket and outbox beside the new
// one, two network owners of one store. Every worker says its build on a BroadcastChannel when it starts;
// a worker that hears a newer build retires (tells its tabs to reload, stops, closes), and one that hears
// an older build answers with its own, so an old page opened later gets its old worker retired at once.

export const BUILD_CHANNEL = 'lantern-build';

/** The slice of BroadcastChannel used here. */
export interface BuildChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** The build id in a worker's name (`lantern-{buildId}`, src/data/worker-connection.ts). */
export function buildOfWorkerName(name: string): string {
  return name.startsWith('lantern-') ? name.slice('lantern-'.length) : name;
}

/**
 * When a build was made: vite.config.ts ends every build id with the build time in base 36 (after the
 * last `-`). Null for an id without one (`dev`): such builds are never ordered, so never retired.
 */
export function builtAt(buildId: string): number | null {
  const tail = buildId.slice(buildId.lastIndexOf('-') + 1);
  if (!/^[0-9a-z]{6,12}$/.test(tail)) return null;
  const time = Number.parseInt(tail, 36);
  return Number.isSafeInteger(time) ? time : null;
}

/** Whether `other` was built after `own`. */
export function isNewerBuild(other: string, own: string): boolean {
  const a = builtAt(other);
  const b = builtAt(own);
  return a !== null && b !== null && other !== own && a > b;
}

/** Announces `own` and calls `retire` once when a newer build speaks. Returns the stop function. */
export function watchForNewerBuild(own: string, channel: BuildChannel, retire: () => void): () => void {
  let retired = false;
  const onMessage = (event: MessageEvent) => {
    const other = (event.data as { buildId?: unknown } | null)?.buildId;
    if (retired || typeof other !== 'string' || other === own) return;
    if (isNewerBuild(other, own)) {
      retired = true;
      channel.removeEventListener('message', onMessage);
      retire();
    } else if (isNewerBuild(own, other)) {
      channel.postMessage({ buildId: own });
    }
  };
  channel.addEventListener('message', onMessage);
  channel.postMessage({ buildId: own });
  return () => channel.removeEventListener('message', onMessage);
}
