// Contract tests by tools nobody here wrote (issue 16, decision 0041): a real server process is started on
// a fresh DATA_DIR, its own /api/openapi.json is handed to Portman, which generates a Postman collection
// with one request per operation plus variations (no token → 401; fuzzed bodies and queries → 400), and
// Newman runs it with a signed-in token. Every response is checked against the schema the document
// declares for its status (or `default`); the run fails on any 5xx, any mismatch, an operation the server
// does not serve, or the server exiting. Prints the figures: operations, requests, assertions, failures.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import newman, { type NewmanRunSummary } from 'newman';
import { LanternServer } from '../e2e/support/server.ts';
import { openApiDocument } from '../server/http/openapi.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        summary: string;
        security?: unknown[];
        responses: Record<string, { content?: unknown }>;
      }
    >
  >;
};

/** Operations whose main request would end the run's own session or account: each has a user of its own. */
const OWN_USER: Record<string, string> = {
  logout: 'logoutToken',
  deleteAccount: 'deleteToken',
  revokeOtherSessions: 'revokeToken',
};
/** Operations that remove what the others need: they act on a spare copy of it. */
const SPARES: Record<string, Record<string, string>> = {
  deleteChannel: { channelId: 'spareChannelId' },
  leaveChannel: { channelId: 'spareChannelId' },
  deleteGroup: { groupId: 'spareGroupId' },
  deleteSection: { sectionId: 'spareSectionId' },
  deleteAgent: { agentId: 'spareAgentId' },
};

/**
 * The check Newman runs after each request (Postman sandbox JS), with the schemas the document declares
 * for that operation, by status (null: not JSON): no 5xx, a declared status, a body matching its schema,
 * an error that says what happened; and a main request of a protected operation was let in.
 */
function testScript(name: string, responses: Record<string, unknown>, mainRequest: boolean): string[] {
  return [
    `const responses = ${JSON.stringify(responses)};`,
    `const name = ${JSON.stringify(name)};`,
    'const code = pm.response.code;',
    "pm.test('[contract] ' + name + ' answers without a server error', () => pm.expect(code).to.be.below(500));",
    'const declared = responses[String(code)] !== undefined ? responses[String(code)] : responses.default;',
    "pm.test('[contract] ' + name + ' answers ' + code + ' as declared', () => {",
    "  pm.expect(declared, 'status ' + code + ' is not declared').to.not.equal(undefined);",
    '  if (declared === null) return;',
    '  pm.response.to.have.jsonSchema(declared);',
    "  if (code >= 400) pm.expect(pm.response.json().message, 'an error says what happened').to.match(/\\w+ \\w+/);",
    '});',
    "if (code === 404) pm.test('[contract] ' + name + ' is served', () => pm.expect(pm.response.text()).to.not.include('\"message\":\"Route '));",
    ...(mainRequest
      ? ["pm.test('[contract] ' + name + ' accepts the token', () => pm.expect(code).to.not.equal(401));"]
      : []),
  ];
}

/** The environment variable that fills a path parameter of an operation. */
function pathVariable(operationId: string, path: string, param: string): string {
  const spare = SPARES[operationId]?.[param];
  if (spare) return spare;
  if (param === 'id') return path.startsWith('/api/files') ? 'fileId' : 'workspaceId';
  return param;
}

function portmanConfig() {
  return {
    version: 1.0,
    tests: {
      // The status is checked by the collection test script against every declared status, not just 2xx:
      // the main requests carry example bodies, which the server may rightly refuse.
      contractTests: [],
      variationTests: [
        {
          openApiOperation: '*::/api/*',
          excludeForOperations: [...Object.keys(OWN_USER), 'upload'],
          openApiResponse: '401',
          variations: [
            {
              name: 'without a token',
              overwrites: [{ overwriteRequestSecurity: { remove: true } }],
              tests: { contractTests: [{ statusCode: { enabled: true, code: 401 } }] },
            },
          ],
        },
        {
          openApiOperation: '*::/api/*',
          excludeForOperations: [...Object.keys(OWN_USER), 'deleteAccountByCode'],
          openApiResponse: '400',
          variations: [
            {
              name: 'with bad input',
              fuzzing: [
                {
                  // Too short is left to the fast-check fuzzing (tests/server/route-fuzz.test.ts): it keeps
                  // this step within its time.
                  requestBody: [
                    { requiredFields: { enabled: true } },
                    { minimumNumberFields: { enabled: true } },
                    { maximumNumberFields: { enabled: true } },
                    { maxLengthFields: { enabled: true } },
                  ],
                  requestQueryParams: [
                    { requiredFields: { enabled: true } },
                    { minimumNumberFields: { enabled: true } },
                    { maximumNumberFields: { enabled: true } },
                    { maxLengthFields: { enabled: true } },
                  ],
                },
              ],
              tests: { contractTests: [{ statusCode: { enabled: true, code: 400 } }] },
            },
          ],
        },
      ],
    },
    globals: {
      securityOverwrites: { bearer: { token: '{{token}}' } },
      stripResponseExamples: true,
    },
  };
}

type Item = {
  name: string;
  item?: Item[];
  event?: unknown[];
  request?: {
    url: { path?: string[]; variable?: { key: string; value?: string }[] };
    auth?: unknown;
  };
};

/**
 * Fills each generated request in: real ids in its path, the second user's token where the operation would
 * end the run's own session, and the contract check. Returns how many requests there are.
 */
function prepare(items: Item[], doc: Doc, isPublic: Set<string>): number {
  const ops = Object.values(doc.paths).flatMap((item) => Object.entries(item));
  let count = 0;
  for (const item of items) {
    if (item.item) {
      count += prepare(item.item, doc, isPublic);
      continue;
    }
    const request = item.request;
    const [method, op] =
      ops
        .filter(([, o]) => item.name === o.summary || item.name.startsWith(`${o.summary}[`))
        .sort((a, b) => b[1].summary.length - a[1].summary.length)[0] ?? [];
    if (!request || !op || !method) throw new Error(`no operation for the request "${item.name}"`);
    count++;
    const path = `/${(request.url.path ?? []).join('/')}`;
    for (const variable of request.url.variable ?? [])
      variable.value = `{{${pathVariable(op.operationId, path, variable.key)}}}`;
    const mainRequest = !item.name.includes('[');
    const ownUser = OWN_USER[op.operationId];
    if (mainRequest && ownUser)
      request.auth = { type: 'bearer', bearer: [{ key: 'token', value: `{{${ownUser}}}`, type: 'string' }] };
    // Portman's "remove" leaves the collection's bearer in force; a request of its own says none.
    if (item.name.includes('[without a token]')) request.auth = { type: 'noauth' };
    const responses = Object.fromEntries(
      Object.entries(op.responses).map(([status, response]) => {
        const content = response.content as Record<string, { schema?: unknown }> | undefined;
        return [status, content?.['application/json']?.schema ?? null];
      }),
    );
    item.event = [
      ...(item.event ?? []),
      {
        listen: 'test',
        script: {
          type: 'text/javascript',
          exec: testScript(item.name, responses, mainRequest && !isPublic.has(op.operationId)),
        },
      },
    ];
  }
  return count;
}

async function seed(server: LanternServer) {
  const { token, userId } = await server.signInApi('contract-owner@example.com');
  const own = await Promise.all(
    Object.values(OWN_USER).map(
      async (key): Promise<[string, string]> => [key, (await server.signInApi(`${key}@example.com`)).token],
    ),
  );
  const api = <T>(method: string, url: string, body?: unknown) => server.api<T>(method, url, token, body);
  const { institution } = await api<{ institution: { id: string } }>('POST', '/api/institutions', {
    name: 'Contract',
  });
  const ws = `/api/institutions/${institution.id}`;
  const channel = await api<{ channel: { id: string } }>('POST', `${ws}/channels`, {
    name: 'contract',
    type: 'public',
  });
  const spare = await api<{ channel: { id: string } }>('POST', `${ws}/channels`, {
    name: 'spare',
    type: 'public',
  });
  const group = await api<{ group: { id: string } }>('POST', `${ws}/groups`, { name: 'Contract' });
  const spareGroup = await api<{ group: { id: string } }>('POST', `${ws}/groups`, { name: 'Spare' });
  const section = await api<{ section: { id: string } }>('POST', `${ws}/channels/sections`, {
    name: 'Contract',
  });
  const spareSection = await api<{ section: { id: string } }>('POST', `${ws}/channels/sections`, {
    name: 'Spare',
  });
  const members = await api<{ data: { id: string; user?: { id: string } }[] }>('GET', `${ws}/members`);
  return {
    token,
    ...Object.fromEntries(own),
    workspaceId: institution.id,
    channelId: channel.channel.id,
    spareChannelId: spare.channel.id,
    groupId: group.group.id,
    spareGroupId: spareGroup.group.id,
    sectionId: section.section.id,
    spareSectionId: spareSection.section.id,
    memberId: members.data[0]?.id ?? userId,
  };
}

/**
 * The example bodies are made up from the schemas, at random. A name whose pattern allows a leading space
 * could begin with one, and Portman's "maximum length" variation pads a value with its first character:
 * spaces, which the server trims, so the name was short again and, already taken, answered 409 rather than
 * 400 (seen in one run). Such names get a steady example instead, which the example maker uses as a default,
 * and so do free strings with only a maximum (below).
 */
function withSteadyNames<T>(doc: T): T {
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const schema = node as Record<string, unknown>;
    if (schema.type === 'string' && typeof schema.pattern === 'string' && schema.pattern.startsWith('^[ '))
      schema.default ??= 'contract example';
    // A free string with only a maximum could come out empty, and the "maximum length" variation pads a
    // value with its first character: an empty one stays empty, valid, and the request went on to the
    // rules behind the schema (a file registered in a channel the example's ids do not name: 403, not
    // 400; seen in one run). Such strings get the same steady example.
    if (
      schema.type === 'string' &&
      typeof schema.maxLength === 'number' &&
      schema.maxLength >= 'contract example'.length &&
      schema.pattern === undefined &&
      schema.format === undefined &&
      schema.enum === undefined
    )
      schema.default ??= 'contract example';
    for (const child of Object.values(schema)) visit(child);
  };
  visit(doc);
  return doc;
}

function runPortman(docFile: string, configFile: string, output: string, baseUrl: string): Promise<void> {
  const bin = path.join(ROOT, 'node_modules/@apideck/portman/bin/portman');
  const args = [
    '--local',
    docFile,
    '--baseUrl',
    baseUrl,
    '--portmanConfigFile',
    configFile,
    '--output',
    output,
  ];
  const child = spawn(process.execPath, [bin, ...args], { cwd: path.dirname(output) });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`Portman failed:\n${log}`)))),
  );
}

async function main() {
  const started = Date.now();
  const work = await mkdtemp(path.join(os.tmpdir(), 'lantern-contract-'));
  const server = await LanternServer.create({
    LOG_LEVEL: 'warn',
    CLIENT_DIR: path.join(work, 'no-client'),
    OTP_PER_IP_PER_HOUR: '100000',
    RATE_LIMIT_PER_IP: '100000',
    RATE_LIMIT_PER_USER: '100000',
  });
  let exitCode = 1;
  try {
    const docText = JSON.stringify(openApiDocument());
    const doc = JSON.parse(docText) as Doc;
    const docFile = path.join(work, 'openapi.json');
    const configFile = path.join(work, 'portman-config.json');
    const collectionFile = path.join(work, 'collection.json');
    await writeFile(docFile, JSON.stringify(withSteadyNames(structuredClone(doc))));
    await writeFile(configFile, JSON.stringify(portmanConfig()));
    await runPortman(docFile, configFile, collectionFile, server.url);
    const converted = Date.now();
    await server.start();
    const served = await (await fetch(`${server.url}/api/openapi.json`)).text();
    if (served !== docText) throw new Error('/api/openapi.json is not the document generated from the table');
    const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);
    console.log(
      `contract: Portman converted in ${((converted - started) / 1000).toFixed(1)}s, server up in ${seconds(converted)}s`,
    );
    const collection = JSON.parse(await readFile(collectionFile, 'utf8'));
    const isPublic = new Set(
      Object.values(doc.paths)
        .flatMap((item) => Object.values(item))
        .filter((op) => Array.isArray(op.security) && op.security.length === 0)
        .map((op) => op.operationId),
    );
    prepare(collection.item, doc, isPublic);
    const ids = await seed(server);
    const summary = await new Promise<NewmanRunSummary>((resolve, reject) =>
      newman.run(
        {
          collection,
          envVar: Object.entries(ids).map(([key, value]) => ({ key, value })),
          reporters: [],
          timeoutRequest: 30_000,
          // A redirect is an answer of its own (declared as 302), not something to follow elsewhere.
          ignoreRedirects: true,
        },
        (err, result) => (err ? reject(err) : resolve(result)),
      ),
    );
    const stats = summary.run.stats;
    const failures = summary.run.failures;
    if (process.env.CONTRACT_KEEP) await writeFile(process.env.CONTRACT_KEEP, JSON.stringify(collection));
    for (const f of failures.slice(0, 200))
      console.log(`✗ ${f.source?.name ?? '?'}: ${f.error?.test ?? ''} — ${f.error?.message ?? ''}`);
    if (failures.length > 200) console.log(`… and ${failures.length - 200} more`);
    const alive = await fetch(`${server.url}/api/openapi.json`)
      .then((r) => r.ok)
      .catch(() => false);
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item)).length;
    console.log(
      `contract: ${operations} operations, ${stats.requests.total} requests (main + variations), ` +
        `${stats.assertions.total} assertions, ${failures.length} failures, server ${alive ? 'still up' : 'DOWN'}, ` +
        `${((Date.now() - started) / 1000).toFixed(1)}s`,
    );
    exitCode = failures.length === 0 && alive ? 0 : 1;
  } catch (err) {
    console.error(err);
    console.error(server.log());
  } finally {
    await server.dispose();
    await rm(work, { recursive: true, force: true });
  }
  process.exit(exitCode);
}

await main();
