// REST calls a tab has the worker make (decision 0058): the worker already holds the route table and zod
// for its own calls, so the tab's first path carries neither. The tab passes what is its own to decide (the
// token, the API's origin) and gets plain data back, the parsed answer or what went wrong, which it turns
// back into the errors a call of its own would have thrown (src/data/rest-calls.ts). A call that may open a
// session is handed back unsent: the session's device is the window's (its User-Agent and device id).
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
  /**
   * The call may open a session: nothing was sent, the tab makes it. The server names the session's device
   * from the request's User-Agent and device id, which are the window's to give.
   */
  | { kind: 'opens-session' }
  | { kind: 'failed'; failure: RestCallFailure; sessionInvalid: boolean; outdated: boolean };

export interface RestCallHandlers {
  restCall(call: RestCallRequest): Promise<RestCallOutcome>;
}

/** Thrown by the fetch below before anything is sent, when the call may open a session. */
const OPENS_SESSION = Symbol('opens a session');

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
      if (opensSession) throw OPENS_SESSION;
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
    if (error === OPENS_SESSION) return { kind: 'opens-session' };
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
