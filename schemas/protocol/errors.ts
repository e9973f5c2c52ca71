// Error shapes: REST error bodies and socket acknowledgement errors; the plain "done" answer.
import { z } from 'zod';

/**
 * `retryable`: the same request may succeed if sent again later (the server failed, or was busy); absent
 * on a refusal (not allowed, not valid), which would fail again the same way.
 */
export type AckError = { error: { message: string; retryable?: true } };
export type Ack<T> = T | AckError;
export const isAckError = (v: unknown): v is AckError =>
  typeof v === 'object' && v !== null && 'error' in v && typeof (v as AckError).error?.message === 'string';

/**
 * REST error body (Fastify's shape): every 4xx and 5xx answer. Socket errors use AckError. `requestId` is
 * the request's id (also its X-Request-Id header and in the server's log), for reporting a failure.
 * `fields` (a 400 for bad input): a sentence per field refused, keyed by its path ("name", "emails.1"), so a
 * form shows each beside its field; `message` is the first of them. A refused bulk role change (403) uses it
 * too: each member who may not be changed, keyed by their place in `memberIds` ("memberIds.2").
 */
export const errorBody = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  requestId: z.string().optional(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** The answer of a call that changes something and has nothing more to say. */
export const okResponse = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof okResponse>;
