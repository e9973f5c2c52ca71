// A route's path filled from values a person may have typed (a link's #id): a dot segment would climb
// to another route, so it is refused before any request is made.
import { describe, expect, it } from 'vitest';
import { id, isIdParam, isPathParam, restRoutes, routePath } from '../../schemas/protocol/index.ts';

const where = { id: 'w1', channelId: 'c1' };

describe('routePath', () => {
  it('fills each segment with its value, encoded', () => {
    expect(routePath(restRoutes.message, { ...where, messageId: 'a/b?c' })).toBe(
      '/api/institutions/w1/channels/c1/messages/a%2Fb%3Fc',
    );
  });

  it('refuses a segment that a URL parser reads as "here" or "up"', () => {
    for (const messageId of ['.', '..', '%2e', '%2E%2e', '.%2E'])
      expect(() => routePath(restRoutes.message, { ...where, messageId })).toThrow(/cannot be/);
    expect(isPathParam('...')).toBe(true);
    expect(isPathParam('')).toBe(false);
  });

  it('takes as an id what the id schema takes and a path can carry, without zod (the first path has none)', () => {
    for (const value of ['', '.', '..', '%2e', 'a', 'x'.repeat(64), 'x'.repeat(65), 'a/b', '0193c5e2-id'])
      expect(isIdParam(value), JSON.stringify(value)).toBe(id.safeParse(value).success && isPathParam(value));
    expect(isIdParam('x'.repeat(64))).toBe(true);
    expect(isIdParam('x'.repeat(65))).toBe(false);
  });
});
