// User-facing notices for failed intents (spec §8): the server's message, or 'An error occurred'.
import { toast } from 'sonner';

export const GENERIC_ERROR = 'An error occurred';

export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message.trim()) return error.message;
  if (typeof error === 'string' && error.trim()) return error;
  return GENERIC_ERROR;
}

export function notifyError(error: unknown): void {
  toast.error(errorMessage(error));
}
