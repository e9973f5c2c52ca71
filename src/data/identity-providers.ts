// The identity providers this server offers (runtime configuration: no rebuild to add one). Small on
// purpose: the sign-in page asks for the list at once, before the REST client and the store have loaded
// (the standalone sign-in page never loads them for it), and loads the sign-in code only when the list is
// not empty. A plain GET: the route is open and answers every protocol.
import { useEffect, useState } from 'react';
import type { IdentityProvidersResponse } from '../../schemas/protocol/index.ts';
import { ApiError } from '../store/api-error.ts';

let providersPromise: Promise<IdentityProvidersResponse> | null = null;

/** Only what the buttons read is checked; anything else is an answer this page cannot use. */
function isProviderList(value: unknown): value is IdentityProvidersResponse {
  const list = value as Partial<IdentityProvidersResponse> | null;
  return (
    !!list &&
    Array.isArray(list.providers) &&
    list.providers.every((p) => typeof p?.id === 'string' && typeof p.name === 'string') &&
    (list.firebase === null || typeof list.firebase === 'object')
  );
}

async function fetchProviders(): Promise<IdentityProvidersResponse> {
  const res = await fetch('/api/auth/providers', { headers: { accept: 'application/json' } });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, (body as { message?: string } | null)?.message ?? '');
  if (!isProviderList(body))
    throw new ApiError(502, 'The server sent a list of sign-in providers this page cannot read.');
  return body;
}

export function loadIdentityProviders(): Promise<IdentityProvidersResponse> {
  providersPromise ??= fetchProviders().catch((err: unknown) => {
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
