// Spec §2 route rules from the server (GET /api/version, decision 0043): a path the server redirects is
// followed, in the app for a path of ours and by a full page load for another site. The rules are
// checked again here: whatever the answer says, only a same-site path or an http(s) address is followed.
import { useSyncExternalStore } from 'react';

export type RouteRuleMap = Readonly<Record<string, { redirect: string }>>;

let rules: RouteRuleMap = {};
const listeners = new Set<() => void>();

/** Keeps the well-formed rules of an answer (hostile input: anything else is dropped). */
export function parseRouteRules(value: unknown): RouteRuleMap {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const kept: Record<string, { redirect: string }> = {};
  for (const [path, rule] of Object.entries(value)) {
    const redirect = (rule as { redirect?: unknown } | null)?.redirect;
    if (!/^\/[^?#]*$/.test(path) || typeof redirect !== 'string' || redirect.length > 2048) continue;
    if (!/^\/(?!\/)/.test(redirect) && !/^https?:\/\//.test(redirect)) continue;
    kept[path] = { redirect };
  }
  return kept;
}

export function setRouteRules(next: RouteRuleMap): void {
  if (JSON.stringify(next) === JSON.stringify(rules)) return;
  rules = next;
  for (const listener of listeners) listener();
}

export type RouteRuleAction = { kind: 'navigate'; to: string } | { kind: 'load'; url: string };

/** What to do on `pathname` under `current` rules, or null: no rule, or one that points at this very page. */
export function routeRuleAction(
  pathname: string,
  current: RouteRuleMap,
  origin: string,
): RouteRuleAction | null {
  const rule = Object.hasOwn(current, pathname) ? current[pathname] : undefined;
  if (!rule) return null;
  const target = new URL(rule.redirect, origin);
  if (target.origin !== origin) return { kind: 'load', url: target.href };
  const to = `${target.pathname}${target.search}${target.hash}`;
  return target.pathname === pathname ? null : { kind: 'navigate', to };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRouteRules(): RouteRuleMap {
  return useSyncExternalStore(subscribe, () => rules);
}
