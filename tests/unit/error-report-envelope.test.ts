// The tests' error-reporting stand-in reads envelopes as Sentry sends them: a replay recording is
// compressed binary that may hold newlines, delimited by its header's length, and must not be taken for
// the next item (it once made the client error-reporting e2e fail whenever a session replay was sampled).
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { envelopeItems } from '../support/error-report-receiver.ts';

describe('error-report envelopes', () => {
  it('reads items by length where given, by line otherwise', () => {
    let binary = deflateSync(Buffer.from('{"x":1}'.repeat(50)));
    binary = Buffer.concat([binary, Buffer.from('\n{not json\n'), binary]);
    const event = JSON.stringify({ message: 'Composer failed' });
    const body = Buffer.concat([
      Buffer.from(`${JSON.stringify({ event_id: 'e1' })}\n`),
      Buffer.from(`${JSON.stringify({ type: 'replay_recording', length: binary.length })}\n`),
      binary,
      Buffer.from(`\n${JSON.stringify({ type: 'event' })}\n${event}\n`),
    ]);
    const items = envelopeItems(body);
    expect(items.map((i) => i.type)).toEqual(['replay_recording', 'event']);
    expect(items[1]?.payload).toEqual({ message: 'Composer failed' });
  });
});
