// The identity providers this server offers (runtime configuration: no rebuild to add one). Small on
// purpose: the sign-in page asks for the list at once, and loads the sign-in code only when it is not empty.
import { useEffect, useState } from 'react';
import type { IdentityProvidersResponse } from '../../schemas/protocol/index.ts';
import { requireClient } from './client.ts';

let providersPromise: Promise<IdentityProvidersResponse> | null = null;

export function loadIdentityProviders(): Promise<IdentityProvidersResponse> {
  providersPromise ??= requireClient()
    .then(({ http }) => http.call('identityProviders'))
    .catch((err: unknown) => {
      providersPromise = null;
      throw err;
    });
  return providersPromise;
}

export const offersProviders = (list: IdentityProvidersResponse | null): list is IdentityProvidersResponse =>
  !!list && (list.providers.length > 0 || list.firebase !== null);

/** The list, null until it is known; without it (offline, an error) the page offers the e-mail code only. */
export function useIdentityProviders(): IdentityProvidersResponse | null {
  const [list, setList] = useState<IdentityProvidersResponse | null>(null);
  useEffect(() => {
    let live = true;
    loadIdentityProviders()
      .then((l) => live && setList(l))
      .catch(() => live && setList({ providers: [], firebase: null }));
    return () => {
      live = false;
    };
  }, []);
  return list;
}
