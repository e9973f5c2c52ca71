// The API's own description: GET /api/openapi.json answers an OpenAPI 3.1 document (server/http/openapi.ts).
import { z } from 'zod';

/** Only its frame is declared: the document describes every other route, so its shape is OpenAPI's. */
export const openApiDocumentResponse = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});
