// The OpenAPI 3.1 description of the REST API, generated from the route table (schemas/protocol/routes.ts):
// each route's path parameters, query, body, successful answer and error answers become one operation, with
// zod's own JSON Schema output. Nothing here is written per route, so a route added to the table is
// described the moment it exists. Served at /api/openapi.json and browsable at /api/docs (swagger-ui,
// its assets served from node_modules so the CSP's script-src 'self' holds). Decision 0041.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { OpenAPIV3, OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';
import {
  BYTES,
  errorBody,
  id,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  type RestRoute,
  restRoutes,
} from '../../schemas/protocol/index.ts';
import { isOpenPath, isSignedUpload } from './auth-hook.ts';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';

/** A JSON Schema as zod emits it (openapi-types' 3.1 schema types do not accept their own arrays). */
type Schema = { properties?: Record<string, unknown>; required?: string[] } & Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: unknown;
}
type Operation = Omit<OpenAPIV3_1.OperationObject, 'parameters'> & { parameters?: Parameter[] };

/** zod → JSON Schema 2020-12 (OpenAPI 3.1's dialect); requests as the client sends them, answers as sent. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Schema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest as Schema;
}

const errorSchema = jsonSchema(errorBody, 'output');

/** Why each error status can happen; a route lists those that apply to it (see errorStatuses). */
const ERROR_REASONS: Record<number, string> = {
  400: 'The body, query or a path parameter is not valid; the message names the field.',
  401: 'No bearer token, or the session it names has ended.',
  403: 'The caller may not do this here (their role in the workspace or channel).',
  404: 'What the path names does not exist, or the caller cannot see it.',
  409: 'The request conflicts with the current state (the message says what to do).',
  413: 'The body is larger than this route accepts.',
  429: 'Too many requests from this network or this user; Retry-After says when to try again.',
};

const pathParams = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] as string);
const isPublic = (route: RestRoute) =>
  isOpenPath(route.path) || isSignedUpload(route.method, route.path.replace(/:[A-Za-z]+/g, 'x'));

function errorStatuses(route: RestRoute): number[] {
  const params = pathParams(route.path).length > 0;
  const statuses = [400];
  if (!isPublic(route)) statuses.push(401);
  if (params || route.body !== undefined || route.path.startsWith('/api/institutions')) statuses.push(403);
  if (params) statuses.push(404);
  if (route.body !== undefined) statuses.push(413);
  statuses.push(429);
  return statuses;
}

const jsonContent = (schema: Schema) => ({
  'application/json': { schema: schema as OpenAPIV3_1.SchemaObject },
});

/** `/api/institutions/:id` → `/api/institutions/{id}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

/** Groups operations by the noun they act on: the segment after /api/ (or after the workspace). */
function tagOf(path: string): string {
  const parts = path.split('/').filter((p) => p && !p.startsWith(':'));
  const noun = parts[1] === 'institutions' && parts.length > 2 ? parts[2] : parts[1];
  return noun ?? 'api';
}

/** `createChannelRole` → "Create channel role": the table's name for the route, as a heading. */
export function summaryOf(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function queryParameters(query: z.ZodType): Parameter[] {
  const schema = jsonSchema(query, 'input');
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query' as const,
    required: required.has(name),
    schema: property,
  }));
}

function operation(name: string, route: RestRoute): Operation {
  const parameters: Parameter[] = pathParams(route.path).map((param) => ({
    name: param,
    in: 'path' as const,
    required: true,
    schema: jsonSchema(id, 'input'),
  }));
  if (route.query) parameters.push(...queryParameters(route.query));

  let requestBody: OpenAPIV3_1.RequestBodyObject | undefined;
  if (route.body === BYTES) {
    requestBody = {
      required: true,
      description: 'The raw bytes, with their own Content-Type.',
      content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
    };
  } else if (route.body) {
    requestBody = {
      required: !route.body.safeParse(undefined).success,
      content: jsonContent(jsonSchema(route.body, 'input')),
    };
  }

  const responses: OpenAPIV3_1.ResponsesObject = {};
  for (const status of route.status ?? [200]) {
    responses[String(status)] =
      route.response === BYTES
        ? {
            description: 'Not JSON: the bytes of a file or an HTML page (or a redirect to them).',
            content: { '*/*': { schema: {} } },
          }
        : {
            description: status === 201 ? 'Created.' : 'Done.',
            content: jsonContent(jsonSchema(route.response, 'output')),
          };
  }
  if (route.response === BYTES && route.method === 'GET')
    responses['302'] = { description: 'A redirect to where the bytes (or the next page) are.' };
  for (const status of errorStatuses(route))
    responses[String(status)] = {
      description: ERROR_REASONS[status] ?? 'Error.',
      content: jsonContent(errorSchema),
    };
  responses.default = {
    description: 'Any other failure, in the same shape (500 never carries internals).',
    content: jsonContent(errorSchema),
  };

  return {
    operationId: name,
    tags: [tagOf(route.path)],
    summary: summaryOf(name),
    ...(isPublic(route) ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** The whole document. Pure: the same table gives the same document. */
export function openApiDocument(): OpenAPIV3_1.Document {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [name, route] of Object.entries(restRoutes) as [string, RestRoute][]) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(name, route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lantern REST API',
      version: String(PROTOCOL_VERSION),
      description: [
        'Generated from schemas/protocol/routes.ts: every route with the schemas the server checks.',
        `Send your protocol version in the ${PROTOCOL_HEADER} header (this is ${PROTOCOL_VERSION}); a client`,
        'older than the server supports gets 426. Realtime events travel over socket.io: see',
        'docs/socket-events.md.',
      ].join(' '),
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The token of POST /api/auth/signin (a sign-in code mailed by GET /api/auth/signin_otp).',
        },
      },
    },
    paths: paths as OpenAPIV3_1.PathsObject,
  };
}

/**
 * Built once per process: the table is fixed at build time, and zod's JSON Schema output for 150 operations
 * is a noticeable share of a server's start (every test server starts one).
 */
let built: OpenAPIV3_1.Document | undefined;

/** GET /api/openapi.json and the reference at /api/docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  built ??= openApiDocument();
  const document = built;
  // @fastify/swagger's types know OpenAPI 3.0 and Swagger 2 only; it serves a 3.1 document unchanged.
  await app.register(swagger, {
    mode: 'static',
    specification: { document: document as unknown as OpenAPIV3.Document },
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { docExpansion: 'none', deepLinking: true, persistAuthorization: false },
    theme: { title: 'Lantern API' },
  });
  app.get(OPENAPI_PATH, async (_request, reply) => reply.header('cache-control', 'no-cache').send(document));
}
