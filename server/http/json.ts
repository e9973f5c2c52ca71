// The JSON body parser: Fastify's own (with its prototype-poisoning guard), except that an empty body is
// "no body" rather than an error, so a client that always sends `Content-Type: application/json` can call
// PUT /api/users/logout without one.
import type { FastifyInstance } from 'fastify';

export function registerJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });
}
