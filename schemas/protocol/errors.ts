// Error shapes: REST error bodies and socket acknowledgement errors; the plain "done" answer.
import { z } from 'zod';

export type AckError = { error: { message: string } };
export type Ack<T> = T | AckError;
export const isAckError = (v: unknown): v is AckError =>
  typeof v === 'object' && v !== null && 'error' in v && typeof (v as AckError).error?.message === 'string';

/** REST error body (Fastify's shape): every 4xx and 5xx answer. Socket errors use AckError. */
export const errorBody = z.object({ statusCode: z.number().int(), error: z.string(), message: z.string() });
export type ErrorBody = z.infer<typeof errorBody>;

/** The answer of a call that changes something and has nothing more to say. */
export const okResponse = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof okResponse>;
