// The REST side of the protocol window: a request naming its protocol in the Lantern-Protocol header gets
// 426 when the server no longer answers that protocol; a request without the header (curl, scripts) is
// served as before. Runs before the auth check, so an outdated client is told to reload, not signed out.
import type { FastifyInstance } from 'fastify';
import { PROTOCOL_HEADER, PROTOCOL_OUTDATED_MESSAGE } from '../../schemas/protocol/index.ts';
import { badRequest, HttpError } from '../errors.ts';

const headerName = PROTOCOL_HEADER.toLowerCase();

/** The version a request names: undefined without the header; a 400 when it is not a whole number. */
export function requestedProtocol(value: string | string[] | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value.trim()))
    throw badRequest(`The ${PROTOCOL_HEADER} header must be a whole number, such as 7.`);
  return Number(value.trim());
}

export function installProtocolVersionCheck(app: FastifyInstance, minVersion: number): void {
  app.addHook('onRequest', async (request) => {
    const version = requestedProtocol(request.headers[headerName]);
    if (version !== undefined && version < minVersion) throw new HttpError(426, PROTOCOL_OUTDATED_MESSAGE);
  });
}
