// The tab's named REST calls (Http.call), made by the worker (decision 0062): the route table and zod stay
// in the worker, which already holds them, and off the channel route's first path. The tab keeps what is
// its own: the token, what a refused session or an outdated build means here, and the calls the worker
// hands back unsent (worker/rest-calls.ts): a person's actions, and the calls that may open a session
// (sign-in, the learning-tool launch), whose device the server names from the window's User-Agent. A
// failure comes back as data and is thrown again as the error the tab's own call would have thrown.
import type { Remote } from 'comlink';
import type { RestCallFailure, RestCallHandlers } from '../../worker/rest-calls.ts';
import { ApiError, type Http, UnexpectedAnswerError } from '../store/http.ts';

export interface RestCallOptions {
  baseUrl: string;
  getToken: () => Promise<string | null>;
  onSessionInvalid: () => void;
  onOutdated: () => void;
}

/**
 * Http.call through the worker; `inTab` (the tab's own Http.call, which loads the route table when first
 * used) makes the calls the worker hands back.
 */
export function workerCall(
  worker: Remote<RestCallHandlers>,
  inTab: Http['call'],
  options: RestCallOptions,
): Http['call'] {
  return (async (name, req = {}) => {
    const { query, ...request } = req;
    const token = await options.getToken();
    const search = query ? new URLSearchParams(query).toString() : undefined;
    const outcome = await worker.restCall({ name, request, search, baseUrl: options.baseUrl, token });
    if (outcome.kind === 'answer') return outcome.value;
    if (outcome.kind === 'in-tab') return inTab(name, req);
    if (outcome.outdated) options.onOutdated();
    if (outcome.sessionInvalid) options.onSessionInvalid();
    throw errorOf(outcome.failure);
  }) as Http['call'];
}

/** The error a call made in this tab would have thrown (errorMessage() tells a network error by its class). */
export function errorOf(failure: RestCallFailure): Error {
  if (failure.type === 'api') return new ApiError(failure.status, failure.message, failure.fields);
  if (failure.type === 'unexpected') {
    const [method = 'GET', ...path] = failure.route.split(' ');
    return new UnexpectedAnswerError({ method: method as 'GET', path: path.join(' ') });
  }
  if (failure.name === 'TypeError') return new TypeError(failure.message);
  if (failure.name === 'TimeoutError' || failure.name === 'AbortError')
    return new DOMException(failure.message, failure.name);
  const error = new Error(failure.message);
  error.name = failure.name;
  return error;
}
