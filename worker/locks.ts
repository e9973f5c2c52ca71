// The slice of the Web Locks API the worker uses (navigator.locks fits it); tests pass an in-process fake.
export interface Locks {
  /** Runs `callback` once the lock is granted and holds it until the callback's promise settles. */
  request(name: string, callback: () => Promise<unknown>): Promise<unknown>;
}
