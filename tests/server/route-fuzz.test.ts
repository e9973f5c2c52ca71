// Property-based fuzzing of every REST route (issue 16, decision 0041): fast-check draws path parameters,
// queries and bodies from the JSON Schema of the route table's own zod schemas (mostly near their bounds,
// sometimes anything at all) and sends them with a signed-in token. Whatever arrives, the server never
// answers 5xx, a success matches the route's declared answer and an error is errorBody with a sentence
// (the harness's client checks both shapes on every answer).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BYTES,
  type ErrorBody,
  type RestRoute,
  type RestRouteName,
  restRoutes,
} from '../../schemas/protocol/index.ts';
import { startTestServer, type TestServer, type TestUser } from './harness.ts';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
};

/** Values near a string's bounds: empty, at the limit and one past it, or a short random one. */
function stringNear(schema: JsonSchema): fc.Arbitrary<string> {
  const max = schema.maxLength ?? 40;
  const sizes = [0, schema.minLength ?? 1, Math.min(max, 300), Math.min(max + 1, 301)];
  return fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.constantFrom(...sizes).chain((n) => fc.string({ minLength: n, maxLength: n })),
    fc.constantFrom('00000000-0000-7000-8000-000000000000', 'a@example.com', '2026-01-01T00:00:00Z', '../'),
  );
}

/** An arbitrary for a JSON Schema as zod emits it; `depth` keeps nested arrays small. */
function arbitraryOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fc.oneof(...options.map((option) => arbitraryOf(option, depth)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringNear(schema);
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? 1_000_000;
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min - 1, max + 1, 0, -1, 1.5));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const maxLength = depth > 1 ? 2 : Math.min((schema.maxItems ?? 4) + 1, 5);
      return fc.array(schema.items ? arbitraryOf(schema.items, depth + 1) : fc.anything(), { maxLength });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const keys = Object.keys(properties);
      return fc.record(
        Object.fromEntries(keys.map((key) => [key, arbitraryOf(properties[key] ?? {}, depth + 1)])),
        { requiredKeys: (schema.required ?? []).filter((key) => keys.includes(key)) },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Mostly what the schema describes (to get past the first check), sometimes anything at all. */
function hostile(schema: z.ZodType | undefined): fc.Arbitrary<unknown> {
  if (!schema) return fc.constant(undefined);
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return fc.oneof(
    { weight: 4, arbitrary: arbitraryOf(json) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
}

/** Routes that would end the fuzzing user's own session or account: each call gets a user of its own. */
const ENDS_THE_SESSION = new Set<RestRouteName>(['logout', 'deleteAccount', 'revokeOtherSessions']);
/** Small in `npm test`; FUZZ_RUNS and FUZZ_SEED let a person hunt longer (`FUZZ_RUNS=50 npx vitest run …`). */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 3);
const SEED = Number(process.env.FUZZ_SEED ?? 16);

describe('every route, fuzzed from its own schemas', () => {
  let t: TestServer;
  let owner: TestUser;
  const real: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestServer('pglite');
    owner = await t.signUp();
    const created = await owner.api.post<{ institution: { id: string } }>('/api/institutions', {
      name: 'Fuzz',
    });
    real.id = created.body.institution.id;
    const channel = await owner.api.post<{ channel: { id: string } }>(
      `/api/institutions/${real.id}/channels`,
      { name: 'fuzz', type: 'public' },
    );
    real.channelId = channel.body.channel.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('never answers 5xx, and answers every request in its declared shape', async () => {
    let cases = 0;
    const statuses = new Map<number, number>();
    for (const [name, route] of Object.entries(restRoutes) as [RestRouteName, RestRoute][]) {
      const params = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] as string);
      const paramArb = fc.record(
        Object.fromEntries(
          params.map((p) => [
            p,
            // Mostly the real workspace and channel, so that requests get past the permission checks.
            fc.oneof(
              { weight: 3, arbitrary: fc.constant(real[p] ?? 'missing') },
              { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 70 }) },
              { weight: 1, arbitrary: fc.constantFrom('%2e%2e', '0', "'; --") },
            ),
          ]),
        ),
      );
      const body = route.body === BYTES ? fc.string({ maxLength: 50 }) : hostile(route.body);
      await fc.assert(
        fc.asyncProperty(paramArb, hostile(route.query), body, async (values, query, payload) => {
          cases++;
          const path = route.path.replace(/:([A-Za-z]+)/g, (_, p: string) =>
            encodeURIComponent(String(values[p] ?? '')),
          );
          const search =
            query && typeof query === 'object' && !Array.isArray(query)
              ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`
              : '';
          const api = ENDS_THE_SESSION.has(name) ? (await t.signUp()).api : owner.api;
          const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
          const answer =
            method === 'get'
              ? await api.get<ErrorBody>(path + search)
              : await api[method]<ErrorBody>(path + search, payload === undefined ? undefined : payload);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          expect(answer.status, `${route.method} ${path}${search}`).toBeLessThan(500);
          if (answer.status >= 400)
            expect(answer.body.message, `${route.method} ${path}: ${answer.status}`).toMatch(/\w+ \w+/);
        }),
        { numRuns: RUNS_PER_ROUTE, seed: SEED },
      );
    }
    console.log(
      `route fuzz: ${Object.keys(restRoutes).length} routes, ${cases} cases, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 600_000);
});
