// The optional Firebase Authentication adapter (spec §7): Google's account chooser through the Firebase
// SDK's popup, for deployments that already use Firebase. The SDK is loaded only when the server's runtime
// configuration names a Firebase project, so it never weighs on the main bundle.
import type { FirebaseClientConfig } from '../../schemas/protocol/index.ts';
import { SignInError, signInWithFirebaseToken } from './identity.ts';

type FirebaseModules = [typeof import('firebase/app'), typeof import('firebase/auth')];
let modules: Promise<FirebaseModules> | null = null;

/** Starts loading the SDK early (on the sign-in page), so the popup opens within the click's activation. */
export function preloadFirebase(): Promise<FirebaseModules> {
  modules ??= Promise.all([import('firebase/app'), import('firebase/auth')]);
  return modules;
}

async function firebaseAuth(config: FirebaseClientConfig) {
  const [app, auth] = await preloadFirebase();
  const { name: _name, vapidKey: _vapid, ...options } = config;
  const instance = app.getApps()[0] ?? app.initializeApp(options);
  return { auth, client: auth.getAuth(instance) };
}

/** Sign-in by popup with the account chooser every time; errors keep Firebase's codes (spec §8). */
export async function signInWithFirebasePopup(config: FirebaseClientConfig): Promise<void> {
  const { auth, client } = await firebaseAuth(config);
  const provider = new auth.GoogleAuthProvider();
  provider.setCustomParameters({ prompt: 'select_account' });
  let idToken: string;
  try {
    const result = await auth.signInWithPopup(client, provider);
    idToken = await result.user.getIdToken();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new SignInError(typeof code === 'string' ? code : 'auth/internal-error');
  }
  await signInWithFirebaseToken(idToken);
}

/** Spec §7 redirect-result lookup: the ID token of a redirect sign-in that just returned, or null. */
export async function firebaseRedirectResult(config: FirebaseClientConfig): Promise<string | null> {
  const { auth, client } = await firebaseAuth(config);
  const result = await auth.getRedirectResult(client).catch(() => null);
  return result ? result.user.getIdToken() : null;
}

/** Spec §7 sign-out from the provider: Firebase keeps its own session, which Lantern's logout ends too. */
export async function firebaseSignOut(config: FirebaseClientConfig): Promise<void> {
  const { auth, client } = await firebaseAuth(config);
  await auth.signOut(client);
}
