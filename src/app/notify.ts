// User-facing notices for failed intents (spec §8): the server's message, or 'An error occurred'.
// Internal errors (store, worker) are logged for developers, never shown raw to a person.

import { ApiError } from '../store/api-error.ts';
import { toast } from './toast.ts';

export const GENERIC_ERROR = 'An error occurred';
export const NETWORK_ERROR = 'Network error. Please check your connection.';

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message || GENERIC_ERROR;
  // fetch() rejects with a TypeError when the server cannot be reached at all.
  if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message)) return NETWORK_ERROR;
  console.error(error);
  return GENERIC_ERROR;
}

export function notifyError(error: unknown): void {
  toast.error(errorMessage(error));
}
