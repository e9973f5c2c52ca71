// REST calls a tab has the worker make (decision 0062): the worker already holds the route table and zod
// for its own calls, so the tab's first path carries neither. The tab passes what is its own to decide (the
// token, the API's origin) and gets plain data back, the parsed answer or what went wrong, which it turns
// back into the errors a call of its own would have thrown (src/data/rest-calls.ts). What it makes are the
// page's reads and its own background write, the session ping: what a first screen needs. A person's
// action (every other write) is handed back unsent and made by the tab, which loads the route table by
// then, so the write goes from the page it was made in (its network log, its lifetime); so is a call that
// may open a session, whose device the server names from the window's User-Agent and device id.
import {
  ApiError,
  createHttp,
  type JsonRouteName,
  type RouteRequest,
  UnexpectedAnswerError,
} from '../src/store/http.ts';

export interface RestCallRequest {
  name: JsonRouteName;
  /** The request without its query, which comes as `search` (a URLSearchParams does not cross postMessage). */
  request: Omit<RouteRequest, 'query'>;
  /** The query string, without '?'. */
  search?: string;
  /** The tab's API origin ('' for its own). */
  baseUrl: string;
  token: string | null;
}

/** What went wrong, as plain data that crosses postMessage (an Error's class does not). */
export type RestCallFailure =
  | { type: 'api'; status: number; message: string; fields: Record<string, string> }
  | { type: 'unexpected'; route: string }
  | { type: 'error'; name: string; message: string };

export type RestCallOutcome =
  | { kind: 'answer'; value: unknown }
  /** A person's action, or a call that may open a session: nothing was sent, the tab makes it. */
  | { kind: 'in-tab' }
  | { kind: 'failed'; failure: RestCallFailure; sessionInvalid: boolean; outdated: boolean };

export interface RestCallHandlers {
  restCall(call: RestCallRequest): Promise<RestCallOutcome>;
}

/** Thrown by the fetch below before anything is sent, when the tab is to make the call. */
const IN_TAB = Symbol('made by the tab');

/** The writes the page makes without a person asking, made here with its reads. */
const BACKGROUND_WRITES: ReadonlySet<string> = new Set(['pingSession']);

export async function runRestCall(
  call: RestCallRequest,
  doFetch: typeof fetch = fetch,
): Promise<RestCallOutcome> {
  let opensSession = false;
  let sessionInvalid = false;
  let outdated = false;
  const http = createHttp({
    baseUrl: call.baseUrl,
    getToken: () => call.token,
    fetch: (input, init) => {
      const write = (init?.method ?? 'GET') !== 'GET' && !BACKGROUND_WRITES.has(call.name);
      if (opensSession || write) throw IN_TAB;
      return doFetch(input, init);
    },
    // Asked for exactly the calls that may open a session (src/store/http.ts), before anything is sent.
    deviceId: async () => {
      opensSession = true;
      return null;
    },
    onSessionInvalid: () => {
      sessionInvalid = true;
    },
    onOutdated: () => {
      outdated = true;
    },
  });
  try {
    const query = call.search ? new URLSearchParams(call.search) : undefined;
    return { kind: 'answer', value: await http.call(call.name, { ...call.request, query }) };
  } catch (error) {
    if (error === IN_TAB) return { kind: 'in-tab' };
    return { kind: 'failed', failure: failureOf(error), sessionInvalid, outdated };
  }
}

function failureOf(error: unknown): RestCallFailure {
  if (error instanceof UnexpectedAnswerError) return { type: 'unexpected', route: error.route };
  if (error instanceof ApiError)
    return { type: 'api', status: error.status, message: error.message, fields: { ...error.fields } };
  if (error instanceof Error) return { type: 'error', name: error.name, message: error.message };
  return { type: 'error', name: 'Error', message: String(error) };
}
