// GET /api/client-config: what the client learns from the server at run time, before anyone signs in:
// which deployment this is (spec §9's debug environments), where errors are reported, if anywhere, and the
// largest file it takes.
import { z } from 'zod';

/** Spec §9: development, test and staging are debug environments; production is not. */
export const deploymentEnvironment = z.enum(['development', 'test', 'staging', 'production']);
export type DeploymentEnvironment = z.infer<typeof deploymentEnvironment>;

export const clientConfigResponse = z.object({
  environment: deploymentEnvironment,
  /** Sentry/GlitchTip for the client with the spec's sampling; null: no reporting (no DSN, or development). */
  errorReporting: z
    .object({
      dsn: z.string(),
      tracesSampleRate: z.number(),
      replaysSessionSampleRate: z.number(),
      replaysOnErrorSampleRate: z.number(),
    })
    .nullable(),
  /** The largest file this server takes (FILE_MAX_BYTES): the composer refuses larger ones before uploading. */
  fileMaxBytes: z.number().int().positive(),
});
export type ClientConfig = z.infer<typeof clientConfigResponse>;
