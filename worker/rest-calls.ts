// REST calls a tab has the worker make (decision 0058): the worker already holds the route table and zod
// for its own calls, so the tab's first path carries neither. The tab passes what is its own to decide (the
// token, the device id, the API's origin) and gets plain data back, the parsed answer or what went wrong,
// which it turns back into the errors a call of its own would have thrown (src/data/rest-calls.ts).
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
  /** This device's id for a call that may open a session; undefined when the tab has not worked it out. */
  device?: string | null;
}

/** What went wrong, as plain data that crosses postMessage (an Error's class does not). */
export type RestCallFailure =
  | { type: 'api'; status: number; message: string; fields: Record<string, string> }
  | { type: 'unexpected'; route: string }
  | { type: 'error'; name: string; message: string };

export type RestCallOutcome =
  | { kind: 'answer'; value: unknown }
  /** The call may open a session: ask again with the device id (the worker cannot work it out). */
  | { kind: 'device-needed' }
  | { kind: 'failed'; failure: RestCallFailure; sessionInvalid: boolean; outdated: boolean };

export interface RestCallHandlers {
  restCall(call: RestCallRequest): Promise<RestCallOutcome>;
}

/** Thrown by the fetch below before anything is sent, when the call needs a device id it was not given. */
const DEVICE_NEEDED = Symbol('device needed');

export async function runRestCall(
  call: RestCallRequest,
  doFetch: typeof fetch = fetch,
): Promise<RestCallOutcome> {
  let deviceAsked = false;
  let sessionInvalid = false;
  let outdated = false;
  const http = createHttp({
    baseUrl: call.baseUrl,
    getToken: () => call.token,
    fetch: (input, init) => {
      if (deviceAsked && call.device === undefined) throw DEVICE_NEEDED;
      return doFetch(input, init);
    },
    deviceId: async () => {
      deviceAsked = true;
      return call.device ?? null;
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
    if (error === DEVICE_NEEDED) return { kind: 'device-needed' };
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
