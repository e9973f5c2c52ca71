// Decision 0044: an acknowledgement error says when the same event may succeed later (retryable: the
// server failed or was busy), so the client offers Retry only then; a refusal carries no such flag.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError } from '../../server/errors.ts';
import { acknowledged } from '../../server/realtime/ack.ts';
import type { LanternSocket } from '../../server/realtime/types.ts';

const log = pino({ level: 'silent' });

async function ackOf(run: () => Promise<unknown>, payload: unknown = { n: 1 }): Promise<unknown> {
  const listener = acknowledged(log, 'postMessage', z.object({ n: z.number() }), run);
  let answer: unknown;
  await listener.call({} as LanternSocket, payload, (a: unknown) => {
    answer = a;
  });
  return answer;
}

describe('acknowledgement errors', () => {
  it('carry no retryable flag on a refusal that would fail again', async () => {
    expect(
      await ackOf(async () => {
        throw new HttpError(403, 'You cannot post in this channel');
      }),
    ).toEqual({ error: { message: 'You cannot post in this channel' } });
    const invalid = await ackOf(async () => 'never', { n: 'not a number' });
    expect(invalid).toEqual({ error: { message: expect.any(String) } });
  });

  it('say retryable when the server failed or was busy', async () => {
    expect(
      await ackOf(async () => {
        throw new Error('database connection lost');
      }),
    ).toEqual({ error: { message: 'An error occurred', retryable: true } });
    expect(
      await ackOf(async () => {
        throw new HttpError(429, 'Too many requests');
      }),
    ).toEqual({ error: { message: 'Too many requests', retryable: true } });
  });
});
