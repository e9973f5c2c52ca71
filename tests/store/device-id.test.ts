// The device id (spec §3 sessionClientId, §9 1 s time-out and 3 retries): the same traits give the same
// SHA-256, a hanging or failing gatherer is retried, and after the retries the id is simply absent.
import { describe, expect, it } from 'vitest';
import { computeDeviceId, DEVICE_ID_RETRIES } from '../../src/data/device-id.ts';

const traits = {
  userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile',
  platform: 'Android',
  screen: '412x915@2.625',
  timeZone: 'Europe/Berlin',
  languages: 'de-DE,en',
  cores: 8,
};

describe('device id', () => {
  it('is a SHA-256 in hex, the same for the same traits and different for others', async () => {
    const a = await computeDeviceId(async () => traits);
    const b = await computeDeviceId(async () => ({ ...traits }));
    const other = await computeDeviceId(async () => ({ ...traits, screen: '390x844@3' }));
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(other).not.toBe(a);
  });

  it('retries an attempt that hangs past the time-out, then succeeds', async () => {
    let calls = 0;
    const id = await computeDeviceId(async () => {
      calls++;
      if (calls < 3) await new Promise(() => {});
      return traits;
    }, 20);
    expect(calls).toBe(3);
    expect(id).toBe(await computeDeviceId(async () => traits));
  });

  it('gives up after the retries: no id rather than an error', async () => {
    let calls = 0;
    const id = await computeDeviceId(async () => {
      calls++;
      throw new Error('no screen here');
    }, 20);
    expect(id).toBeNull();
    expect(calls).toBe(1 + DEVICE_ID_RETRIES);
  });
});
