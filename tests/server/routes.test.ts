// The route table (schemas/protocol/routes.ts) is the server's REST surface, exactly: every /api route the
// server registers is declared with its answer schema, nothing is declared that the server lacks, and a URL
// reaches the route Fastify's router would pick (a literal segment beats a :param).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRoute, restRoutes } from '../../schemas/protocol/index.ts';
import { checkAnswer, startTestServer, type TestServer } from './harness.ts';

/**
 * swagger-ui's pages and assets under /api/docs (server/http/openapi.ts) are HTML, scripts and a copy of
 * /api/openapi.json, not API: left out of the table on purpose (decision 0041).
 */
const isApiReference = (path: string) => path === '/api/docs' || path.startsWith('/api/docs/');

/** "METHOD /path" for every route in Fastify's printed tree (children extend their parent's path). */
function registeredRoutes(tree: string): string[] {
  const prefixes: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line.trimEnd());
    if (!match) continue;
    const depth = (match[1]?.length ?? 0) / 4;
    const path = (prefixes[depth - 1] ?? '') + (match[2] ?? '');
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean))
      if (method !== 'HEAD' && path.startsWith('/api/') && !isApiReference(path))
        routes.push(`${method} ${path}`);
  }
  return routes.sort();
}

describe('the REST route table', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('declares exactly the routes the server registers', () => {
    const declared = Object.values(restRoutes)
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    expect(declared).toEqual(registeredRoutes(t.server.app.printRoutes({ commonPrefix: false })));
  });

  it('matches a URL to the route the server would run', () => {
    const id = 'w1';
    expect(findRoute('PUT', `/api/institutions/${id}/members/bulk`)?.name).toBe('updateMembers');
    expect(findRoute('PUT', `/api/institutions/${id}/members/m1`)?.name).toBe('updateMember');
    expect(findRoute('GET', `/api/institutions/${id}/channels/sections?x=1`)?.name).toBe('sections');
    expect(findRoute('PUT', `/api/institutions/${id}/channels/sections/reorder`)?.name).toBe(
      'reorderSections',
    );
    expect(findRoute('PUT', `/api/institutions/${id}/channels/c1`)?.name).toBe('renameChannel');
    expect(findRoute('GET', `/api/institutions/${id}/agents/usage`)?.name).toBe('agentUsage');
    expect(findRoute('GET', '/api/institutions/invited')?.name).toBe('myInvitations');
    expect(findRoute('PATCH', '/api/users')).toBeUndefined();
    expect(findRoute('GET', '/api/nothing/here')).toBeUndefined();
  });

  it("makes the tests' client refuse an answer a client could not read", () => {
    const me = { id: 'u1', email: 'a@example.com', name: 'A', profileImage: null };
    expect(checkAnswer('GET', '/api/users', 200, me)).toEqual(me);
    expect(() => checkAnswer('GET', '/api/users', 200, { ...me, name: 3 })).toThrow(
      /does not match restRoutes\.me/,
    );
    expect(() => checkAnswer('GET', '/api/users', 200, { ...me, secret: 'x' })).toThrow(
      /fields restRoutes\.me \(\/api\/users\) does not declare: \.secret/,
    );
    expect(() => checkAnswer('GET', '/api/users', 500, { oops: true })).toThrow(/does not match errorBody/);
    expect(() => checkAnswer('GET', '/api/undeclared', 200, {})).toThrow(/no route in schemas/);
    const notFound = { statusCode: 404, error: 'Not Found', message: 'Route GET:/api/nope not found' };
    expect(checkAnswer('GET', '/api/nope', 404, notFound)).toEqual(notFound);
  });
});
