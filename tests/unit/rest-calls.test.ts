// The tab's named calls made by the worker (decision 0062): the tab gets the parsed answer, or the same
// error class its own call would have thrown, and its own handlers for a lost session and an outdated
// build; a person's action and a call that may open a session are made by the tab itself.
import type { Remote } from 'comlink';
import { describe, expect, it } from 'vitest';
import { SESSION_CLIENT_HEADER } from '../../schemas/protocol/headers.ts';
import { workerCall } from '../../src/data/rest-calls.ts';
import { ApiError, type Http, UnexpectedAnswerError } from '../../src/store/http.ts';
import { type RestCallHandlers, runRestCall } from '../../worker/rest-calls.ts';

type Answer = (url: string, init: RequestInit) => Response | Promise<Response>;

function world(answer: Answer, token: string | null = 'tok') {
  const seen: { url: string; headers: Record<string, string> }[] = [];
  const counts = { invalid: 0, outdated: 0 };
  const inTab: { name: string; request: unknown }[] = [];
  const fakeFetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    seen.push({ url: String(input), headers: { ...(init.headers as Record<string, string>) } });
    return answer(String(input), init);
  }) as typeof fetch;
  // What comlink would carry: structured clones both ways.
  const worker = {
    restCall: async (call) => structuredClone(await runRestCall(structuredClone(call), fakeFetch)),
  } as RestCallHandlers as unknown as Remote<RestCallHandlers>;
  const tabCall = (async (name: string, request: unknown) => {
    inTab.push({ name, request });
    return { madeBy: 'tab' };
  }) as unknown as Http['call'];
  const call = workerCall(worker, tabCall, {
    baseUrl: 'http://app.test',
    getToken: async () => token,
    onSessionInvalid: () => {
      counts.invalid += 1;
    },
    onOutdated: () => {
      counts.outdated += 1;
    },
  });
  return { call, seen, counts, inTab };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('REST calls made by the worker', () => {
  it('answers with the parsed answer, the token sent, nothing left to the tab', async () => {
    const { call, seen, inTab } = world(() => json(200, { ok: true, extra: 'dropped' }));
    await expect(call('pingSession', { body: {} })).resolves.toEqual({ ok: true });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('http://app.test/api/users/sessions/ping');
    expect(seen[0]?.headers.authorization).toBe('Bearer tok');
    expect(seen[0]?.headers[SESSION_CLIENT_HEADER]).toBeUndefined();
    expect(inTab).toEqual([]);
  });

  it('hands a call that may open a session back to the tab, unsent', async () => {
    // The server names the new session's device from the request's User-Agent and device id: the window's.
    const { call, seen, inTab } = world(() => json(400, { message: 'Wrong code' }), null);
    const body = { email: 'a@b.c', code: '123456' };
    await expect(call('signin', { body })).resolves.toEqual({ madeBy: 'tab' });
    expect(seen).toEqual([]);
    expect(inTab).toEqual([{ name: 'signin', request: { body } }]);
  });

  it("hands a person's write back to the tab, unsent, but makes the page's own session ping", async () => {
    const { call, seen, inTab } = world(() => json(200, { ok: true }));
    const body = { displayName: 'Ada' };
    await expect(call('updateMe', { body })).resolves.toEqual({ madeBy: 'tab' });
    expect(seen).toEqual([]);
    expect(inTab).toEqual([{ name: 'updateMe', request: { body } }]);
    await expect(call('pingSession', { body: {} })).resolves.toEqual({ ok: true });
    expect(seen.map((s) => s.url)).toEqual(['http://app.test/api/users/sessions/ping']);
  });

  it("runs the tab's own handlers for a lost session and an outdated build", async () => {
    const lost = world(() => json(401, { message: 'session invalid' }));
    await expect(lost.call('workspaces')).rejects.toMatchObject({ status: 401, message: 'session invalid' });
    expect(lost.counts.invalid).toBe(1);
    const old = world(() => json(426, { message: 'Update' }));
    await expect(old.call('workspaces')).rejects.toBeInstanceOf(ApiError);
    expect(old.counts.outdated).toBe(1);
    expect(old.counts.invalid).toBe(0);
  });

  it('keeps the field sentences of a refusal and the class of an unreadable answer', async () => {
    const refused = world(() => json(400, { message: 'Bad', fields: { name: 'Too long' } }));
    const error = await refused.call('workspaces').catch((e) => e);
    expect((error as ApiError).fields).toEqual({ name: 'Too long' });
    const odd = world(() => json(200, { not: 'a list' }));
    const unexpected = await odd.call('workspaces').catch((e) => e);
    expect(unexpected).toBeInstanceOf(UnexpectedAnswerError);
    expect((unexpected as UnexpectedAnswerError).route).toBe('GET /api/institutions');
  });

  it('carries a query given as URLSearchParams, repeated keys and all', async () => {
    const { call, seen } = world(() => json(200, { files: [], total: 0 }));
    const query = new URLSearchParams([
      ['channelId', 'c1'],
      ['page', '1'],
    ]);
    query.append('page', '2');
    await call('files', { params: { id: 'w1' }, query }).catch(() => undefined);
    expect(seen[0]?.url).toBe('http://app.test/api/institutions/w1/files?channelId=c1&page=1&page=2');
  });

  it('throws a network failure as the TypeError errorMessage() recognises', async () => {
    const { call } = world(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await call('workspaces').catch((e) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('Failed to fetch');
  });
});
