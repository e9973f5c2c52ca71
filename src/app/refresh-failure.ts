// Spec §8 refresh failure: always logged (src/data/refresh-triggers.ts); in development, test and staging
// a toast also reports it with its message, so a broken sync is seen while testing; nothing user-facing
// in production, where the next trigger simply tries again.

import type { DeploymentEnvironment } from '../../schemas/protocol/client-config.ts';
import { clientConfig } from './client-config.ts';
import { toast } from './toast.ts';

/** Spec §9: the debug environments. */
export const DEBUG_ENVIRONMENTS: readonly DeploymentEnvironment[] = ['development', 'test', 'staging'];

export function isDebugEnvironment(environment: DeploymentEnvironment): boolean {
  return DEBUG_ENVIRONMENTS.includes(environment);
}

/** Toasts the failure when this deployment is a debug one; an unknown environment counts as production. */
export async function reportRefreshFailure(message: string): Promise<void> {
  const { environment } = await clientConfig().catch(() => ({ environment: 'production' as const }));
  if (isDebugEnvironment(environment)) toast.error('Refresh failed', { description: message });
}
