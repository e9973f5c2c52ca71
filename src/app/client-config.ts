// GET /api/client-config, read once per page load (decision 0040): the deployment's environment (spec §9
// debug environments) and error reporting. Every reader shares one request; a failure is retried on the
// next read rather than remembered. The answer's schema (and zod with it) is loaded with the answer, not
// with the page: the read happens after the first paint and zod is kept off the first rows' path
// (decision 0062).
import type { ClientConfig } from '../../schemas/protocol/client-config.ts';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../schemas/protocol/version.ts';

let loading: Promise<ClientConfig> | null = null;

async function load(): Promise<ClientConfig> {
  const res = await fetch('/api/client-config', { headers: { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) } });
  if (!res.ok) throw new Error(`GET /api/client-config answered ${res.status}`);
  const [body, { clientConfigResponse }] = await Promise.all([
    res.json(),
    import('../../schemas/protocol/client-config.ts'),
  ]);
  const parsed = clientConfigResponse.safeParse(body);
  if (!parsed.success) throw new Error('GET /api/client-config answered something else than a configuration');
  return parsed.data;
}

export function clientConfig(): Promise<ClientConfig> {
  if (!loading) {
    loading = load();
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}
