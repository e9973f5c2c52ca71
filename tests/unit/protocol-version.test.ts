// The wire protocol may not change shape without a PROTOCOL_VERSION bump: this test fingerprints every
// zod schema exported by schemas/protocol/index.ts. When it fails, bump PROTOCOL_VERSION, add a line to the
// history in schemas/protocol/version.ts, and record the new fingerprint here.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as protocol from '../../schemas/protocol/index.ts';

const FINGERPRINTS: Record<number, string> = {
  1: '2f64743cb008345e97c95728c970078b84305dc4ed2bae827cf12eec49e66200',
  2: 'fd1516b85fa5afadb0d887222122d9eb2d6459bdbbe2f1cf6a88fcae4ceb2a49',
  3: '862b2ca14deebfbe8557a4b37273b92f2d774c7cb1dc93c1711beba94ea4642e',
  4: '2f1a508c21dbb81266352025478d41b87870752c417b662a6141576a4c8720ff',
  5: '85ca5ee771e68c87b797e23b0f5008610b6fe1c03406ebb3dead3a7886a12f81',
  6: '29a9318aa95804a9dd35369bfb5c314e858cb24e546a16261552b2160acc6bb2',
  7: 'ee3e6573f6d8b2a4cc6dc6bc459af6503b931e7ce57e6206b3cc7b42b763d516',
  8: '7f1b2a4a797e037caa203dc84dd1616356294ceb2b2241ffb6fcd91789563fb9',
  9: '9ad67aba74297688f46d28a1cc5ee7e42348cbeceaf648cd6f62ddcac46f1bb6',
  10: '9215a243fe33dc00116e288d8eca9bf8c523ef4f524044e17432c81e7eeca298',
  11: '0741e1bd267a6a279845625c8b0425b9d1a8e68e9b204b1fb1d08fbc7bea6af2',
  12: 'ae4610f26c2ba75ed958374207d0c84a78adc280fec2b8f75948da7c1674ced7',
  13: 'b63a37ff14ca07ce02f0e25474c39efe1e2dfb6e2634513e0d89650bcb114137',
  14: '9899e7c51801af3af1ed015184df49309eeb0dc333230acb0c8e3562c6e45d3b',
  15: '0e58222c25744279aa9bf5b2a70e77db4cdb3e7a435cc58b7e04c7faeb8f37be',
};

function fingerprint(): string {
  const shapes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(protocol).sort(([a], [b]) => a.localeCompare(b))) {
    if (value instanceof z.ZodType)
      shapes[name] = z.toJSONSchema(value, { unrepresentable: 'any', io: 'input' });
  }
  return createHash('sha256').update(JSON.stringify(shapes)).digest('hex');
}

describe('protocol version', () => {
  it('matches the recorded shape of every wire schema, so a change without a bump fails here', () => {
    expect({ version: protocol.PROTOCOL_VERSION, fingerprint: fingerprint() }).toEqual({
      version: protocol.PROTOCOL_VERSION,
      fingerprint: FINGERPRINTS[protocol.PROTOCOL_VERSION],
    });
  });
});
