// Links in e-mails (invitations, sign-in) point at PUBLIC_URL; unset, at the port this server answers on,
// not at 3000 whatever the port (issue 15 item 3), and never at a host a request named.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';

describe('PUBLIC_URL', () => {
  it('defaults to localhost on the configured port', () => {
    expect(loadConfig({ PORT: '8080' }).PUBLIC_URL).toBe('http://localhost:8080');
    expect(loadConfig({}).PUBLIC_URL).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '8080', PUBLIC_URL: '' }).PUBLIC_URL).toBe('http://localhost:8080');
  });

  it('is taken as configured, and refused with a sentence when it is not an address', () => {
    expect(loadConfig({ PORT: '8080', PUBLIC_URL: 'https://chat.example.com' }).PUBLIC_URL).toBe(
      'https://chat.example.com',
    );
    expect(() => loadConfig({ PUBLIC_URL: 'chat.example.com' })).toThrow(/PUBLIC_URL/);
  });
});
