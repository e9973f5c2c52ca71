// Local echo in memory: a message just sent shows on the next frame, before the store has written it.
// The durable write (message and outbox rows, src/store/outbox.ts) takes tens of milliseconds through RxDB
// and IndexedDB on a phone; until the store's own row for the genId reaches the message window, the
// window shows this copy instead (same genId, so the list keeps the same row when the stored one lands).
// Someone else's message that just arrived live is held here the same way (an arrival, told by the worker
// before its store write), so an open channel shows it without waiting for that write either.
// Nothing here is ever sent: the worker sends only what is in the outbox.
import type { MessageDoc } from '../../schemas/collections.ts';

type Listener = () => void;

/** How long an echo whose write succeeded may wait for the window to show the stored row. */
const WRITTEN_GRACE_MS = 10_000;
const NONE: readonly MessageDoc[] = Object.freeze([]);

const byChannel = new Map<string, readonly MessageDoc[]>();
const listeners = new Set<Listener>();

function set(channelId: string, list: readonly MessageDoc[]): void {
  if (list.length === 0) byChannel.delete(channelId);
  else byChannel.set(channelId, list);
  for (const listener of listeners) listener();
}

/** Shows a pending message at once; listeners hear of it synchronously (the caller is the key handler). */
export function addEcho(message: MessageDoc): void {
  set(message.channelId, [...echoesOf(message.channelId), message]);
}

/** Drops an echo: its stored row has arrived, or its write failed. */
export function dropEcho(channelId: string, genId: string): void {
  const list = echoesOf(channelId);
  if (!list.some((m) => m.genId === genId)) return;
  set(
    channelId,
    list.filter((m) => m.genId !== genId),
  );
}

/**
 * The write succeeded: the window normally drops the echo when the stored row reaches it; should it never
 * (the row was discarded at once, the channel was left), it still goes after a while.
 */
export function echoWritten(channelId: string, genId: string): void {
  setTimeout(() => dropEcho(channelId, genId), WRITTEN_GRACE_MS);
}

/**
 * Shows a message that just arrived live until its stored row reaches the window (which then drops it), or
 * for a while at most. A copy of the same message already shown (one's own echo) is kept instead.
 */
export function addArrival(message: MessageDoc): void {
  if (echoesOf(message.channelId).some((m) => m.genId === message.genId)) return;
  set(message.channelId, [...echoesOf(message.channelId), message]);
  echoWritten(message.channelId, message.genId);
}

/** The channel's echoes, oldest first; the same array until they change (a useSyncExternalStore snapshot). */
export function echoesOf(channelId: string): readonly MessageDoc[] {
  return byChannel.get(channelId) ?? NONE;
}

export function subscribeEchoes(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Resolves once the frame showing a just-added echo has been produced (the task after the next animation
 * frame), or after 50 ms where no frame comes (a hidden tab, no DOM). The store write waits for it: its
 * JavaScript (validation, IndexedDB requests, the live query answering) would otherwise run before that
 * frame and push the echo one or more frames later.
 */
export function afterEchoPainted(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 50);
    if (typeof requestAnimationFrame !== 'function') return;
    requestAnimationFrame(() => {
      clearTimeout(fallback);
      setTimeout(resolve, 0);
    });
  });
}

/**
 * The stored messages plus the echoes the store does not hold yet; `stored` itself when there are none.
 * `held` names every stored row, deleted ones too (a message deleted before it was shown stays hidden).
 */
export function withEchoes(
  stored: MessageDoc[],
  echoes: readonly MessageDoc[],
  order: (messages: MessageDoc[]) => MessageDoc[],
  held: ReadonlySet<string> = new Set(stored.map((m) => m.genId)),
): MessageDoc[] {
  if (echoes.length === 0) return stored;
  const missing = echoes.filter((m) => !held.has(m.genId));
  return missing.length === 0 ? stored : order([...stored, ...missing]);
}
