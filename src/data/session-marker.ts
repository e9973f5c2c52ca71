// A note in localStorage that this browser holds a session. The session itself lives in the store
// (IndexedDB through RxDB); the standalone sign-in page (src/sign-in-main.tsx) must decide whether to send
// a signed-in person on without loading the store, so the app keeps this note in step with it. A stale
// note costs nothing: the app it leads to checks the real session and comes back to its own sign-in.
const KEY = 'lantern-signed-in';

export function markSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode, quota): the sign-in page then shows its form, which still works.
  }
}

export function seemsSignedIn(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}
