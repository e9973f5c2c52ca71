// Signing in from a learning platform (spec §2 /lti/launch): the page's ltik is exchanged for a session
// of the launched person, after any session this browser had is ended; deep linking answers the platform.
import type { LtiLaunchResponse } from '../../schemas/protocol/index.ts';
import { openFirstScreens } from '../first-screen/store.ts';
import { requireClient, requireConnection } from './client.ts';
import { signOut } from './session.ts';
import { refreshInstitutions } from './workspaces.ts';

/** One exchange per ltik in this tab, however often the screen mounts (an ltik is good once). */
const exchanges = new Map<string, Promise<LtiLaunchResponse>>();

/**
 * Whether this browser lets the app keep its store here (a course iframe may not: third-party storage).
 * Asked of IndexedDB itself, with a database of its own that is deleted again: the store opens only after
 * its worker's, and a frame denied storage may never start that worker at all.
 */
export async function storeAvailable(): Promise<boolean> {
  const probe = 'lantern-storage-probe';
  try {
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(probe);
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
      request.onblocked = () => resolve();
    });
    indexedDB.deleteDatabase(probe);
  } catch {
    return false;
  }
  try {
    await requireClient();
    return true;
  } catch {
    return false;
  }
}

export function launchSession(ltik: string, state: string | null): Promise<LtiLaunchResponse> {
  let exchange = exchanges.get(ltik);
  if (!exchange) {
    exchange = (async () => {
      const { http, db, worker } = await requireClient();
      // Spec §2: with an ltik, an existing session is logged out first; the launch is someone else's.
      if (await db.session.findOne('current').exec()) await signOut();
      const res = await http.call('ltiLaunch', { body: state ? { ltik, state } : { ltik } });
      await db.session.upsert({
        id: 'current',
        token: res.accessToken,
        user: res.user,
        selectedInstitutionId: res.institutionId,
      });
      openFirstScreens();
      await worker.sessionChanged(res.accessToken);
      await refreshInstitutions();
      return res;
    })();
    exchanges.set(ltik, exchange);
  }
  return exchange;
}

/** Places the chosen channel in the course: the signed answer is form-posted to the platform. */
export async function placeChannel(deepLinkToken: string, channelId: string): Promise<void> {
  const { http } = await requireConnection();
  const { returnUrl, jwt } = await http.call('ltiDeepLink', { body: { deepLinkToken, channelId } });
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = returnUrl;
  const field = document.createElement('input');
  field.type = 'hidden';
  field.name = 'JWT';
  field.value = jwt;
  form.append(field);
  document.body.append(form);
  form.submit();
}

/** The course workspace's public channels, for the instructor's choice. */
export async function placeableChannels(institutionId: string): Promise<{ id: string; name: string }[]> {
  const { http } = await requireConnection();
  const res = await http.call('channels', { params: { id: institutionId } });
  return res.data.filter((c) => c.type === 'public').map((c) => ({ id: c.id, name: c.name }));
}
