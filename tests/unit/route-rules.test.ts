// Spec §2 route rules as the tab reads them from GET /api/version (decision 0043): only well-formed rules
// are kept whatever the answer holds, a same-site target is an in-app navigation, another site a full
// page load, and a rule that points at the open page does nothing (no redirect loop).
import { describe, expect, it } from 'vitest';
import { parseRouteRules, routeRuleAction } from '../../src/app/route-rules.ts';

const ORIGIN = 'https://chat.example.com';

describe('route rules', () => {
  it('keeps paths with a same-site path or an http(s) address, and drops everything else', () => {
    expect(
      parseRouteRules({
        '/join': { redirect: 'https://example.com/signup' },
        '/client/directory': { redirect: '/' },
        '/a': { redirect: 'javascript:alert(1)' },
        '/b': { redirect: '//evil.example/' },
        '/c': { redirect: 42 },
        'no-slash': { redirect: '/' },
        '/d?x=1': { redirect: '/' },
        '/e': { redirect: `/${'x'.repeat(3000)}` },
        '/f': null,
      }),
    ).toEqual({
      '/join': { redirect: 'https://example.com/signup' },
      '/client/directory': { redirect: '/' },
    });
    expect(parseRouteRules(null)).toEqual({});
    expect(parseRouteRules([{ redirect: '/' }])).toEqual({});
    expect(parseRouteRules('{"/join":{"redirect":"/"}}')).toEqual({});
  });

  it('navigates in the app to a path of ours and loads another site in full', () => {
    const rules = parseRouteRules({
      '/join': { redirect: '/signin?from=join#top' },
      '/lti/launch': { redirect: 'https://lms.example.com/' },
      '/account-deletion': { redirect: `${ORIGIN}/signin` },
    });
    expect(routeRuleAction('/join', rules, ORIGIN)).toEqual({
      kind: 'navigate',
      to: '/signin?from=join#top',
    });
    expect(routeRuleAction('/lti/launch', rules, ORIGIN)).toEqual({
      kind: 'load',
      url: 'https://lms.example.com/',
    });
    // An absolute address on this very site stays in the app.
    expect(routeRuleAction('/account-deletion', rules, ORIGIN)).toEqual({ kind: 'navigate', to: '/signin' });
    expect(routeRuleAction('/drafts', rules, ORIGIN)).toBeNull();
  });

  it('ignores a rule to the page itself, and names that only an object inherits', () => {
    const rules = parseRouteRules({ '/join': { redirect: '/join?again=1' } });
    expect(routeRuleAction('/join', rules, ORIGIN)).toBeNull();
    expect(routeRuleAction('/constructor', rules, ORIGIN)).toBeNull();
    expect(
      routeRuleAction('/__proto__', parseRouteRules(JSON.parse('{"__proto__": {"redirect": "/"}}')), ORIGIN),
    ).toBeNull();
  });
});
