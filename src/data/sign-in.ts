// The sign-in form's two requests, asking for a code and signing in with it, with the session code
// (src/data/session.ts: the REST client, the store, the worker) loaded when first needed. The standalone
// sign-in page paints and takes an address without that code; it starts loading as the person types.
const session = () => import('./session.ts');

/** Starts loading the session code ahead of the first request (a keystroke in the form). */
export function preloadSignIn(): void {
  void session().catch(() => undefined);
}

export async function requestCode(email: string): Promise<void> {
  await (await session()).requestCode(email);
}

export async function signIn(email: string, code: string): Promise<void> {
  await (await session()).signIn(email, code);
}
