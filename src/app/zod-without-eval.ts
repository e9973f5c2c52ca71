// What `zod` resolves to in the browser build (vite.config.ts aliases it here): zod's faster parser is
// compiled with `new Function`, which the Content-Security-Policy forbids (script-src 'self', no
// 'unsafe-eval'; decision 0016), and its probe is reported as a violation even though the throw is
// swallowed. zod reads the flag when a schema is built, so it must be set before any schema module runs:
// every module that imports zod imports this one, which ESM evaluates first, whichever chunk it lands in.
import * as z from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
