// The device a sign-in request comes from, as the new session records it: the browser's user agent and
// the device id the client names in its Lantern-Device header (spec §3 sessionClientId). Every way in
// (e-mail code, identity provider, LTI launch) reads it here, so Settings → Devices names them alike.
import type { FastifyRequest } from 'fastify';
import { SESSION_CLIENT_HEADER } from '../../schemas/protocol/index.ts';
import type { SigninDevice } from '../services/users.ts';

export function signinDevice(request: FastifyRequest): SigninDevice {
  const header = request.headers[SESSION_CLIENT_HEADER.toLowerCase()];
  return {
    userAgent: request.headers['user-agent'],
    sessionClientId: typeof header === 'string' ? header : null,
  };
}
