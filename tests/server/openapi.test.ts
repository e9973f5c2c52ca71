// The API's own description (decision 0041): /api/openapi.json is open to anyone, describes every route of
// the table with what it takes and answers, marks exactly the routes that need no token as public, and the
// reference at /api/docs loads from this server alone; a body the table's schema refuses never reaches a
// handler.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RestRoute, restRoutes } from '../../schemas/protocol/index.ts';
import { startTestServer, type TestServer } from './harness.ts';

type Operation = {
  operationId: string;
  security?: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: { required: boolean; content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};
type Document = {
  openapi: string;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
  paths: Record<string, Record<string, Operation>>;
};

describe('the OpenAPI document and the API reference', () => {
  let t: TestServer;
  let doc: Document;
  beforeAll(async () => {
    t = await startTestServer('pglite');
    const answer = await t.api().get<Document>('/api/openapi.json');
    expect(answer.status).toBe(200);
    doc = answer.body;
  });
  afterAll(async () => {
    await t?.close();
  });

  const operationOf = (route: RestRoute) =>
    doc.paths[route.path.replace(/:([A-Za-z]+)/g, '{$1}')]?.[route.method.toLowerCase()];

  it('describes every route of the table, with its parameters, body and answers', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [name, route] of Object.entries(restRoutes) as [string, RestRoute][]) {
      const op = operationOf(route);
      expect(op?.operationId, `${route.method} ${route.path}`).toBe(name);
      if (!op) continue;
      const pathParams = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
      expect(op.parameters?.filter((p) => p.in === 'path').map((p) => p.name) ?? []).toEqual(pathParams);
      expect(op.requestBody !== undefined, `${name} body`).toBe(route.body !== undefined);
      for (const status of route.status ?? [200]) expect(op.responses[String(status)], name).toBeDefined();
      expect(op.responses['400']?.content?.['application/json']?.schema).toMatchObject({
        required: ['statusCode', 'error', 'message'],
      });
    }
    expect(Object.values(doc.paths).flatMap((item) => Object.keys(item))).toHaveLength(
      Object.keys(restRoutes).length,
    );
  });

  it('says which routes need no token, and those are the ones that answer without one', async () => {
    const anon = t.api();
    const publicOps = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .filter((op) => Array.isArray(op.security) && op.security.length === 0)
      .map((op) => op.operationId)
      .sort();
    expect(publicOps).toEqual(
      [
        'accountDeletionCode',
        'clientConfig',
        'deleteAccountByCode',
        'identityProviders',
        'ltiLaunch',
        'openApi',
        'providerCallback',
        'providerCallbackPost',
        'providerConfirm',
        'providerSignin',
        'providerStart',
        'signin',
        'signinCode',
        'upload',
        'version',
      ].sort(),
    );
    // A protected route declares 401 and answers it; the document itself needed no token above.
    expect(operationOf(restRoutes.me)?.responses['401']).toBeDefined();
    expect((await anon.get('/api/users')).status).toBe(401);
  });

  it('serves a browsable reference whose scripts come from this server', async () => {
    const page = await fetch(`${t.url}/api/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui-bundle.js');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1] as string);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src.startsWith('http'), src).toBe(false);
      const asset = await fetch(new URL(src, `${t.url}/api/docs/`));
      expect(asset.status, src).toBe(200);
    }
    const spec = await fetch(`${t.url}/api/docs/json`);
    expect(((await spec.json()) as Document).paths).toEqual(doc.paths);
  });

  it('refuses a body the route table refuses before the handler sees it', async () => {
    const owner = await t.signUp();
    const answer = await owner.api.put('/api/users/sessions/ping', { channelId: 7 });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('The channel id should be text.');
  });
});
