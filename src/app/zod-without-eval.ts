// Imported first by every browser entry (tab, SharedWorker, dedicated worker): zod's faster parser is
// compiled with `new Function`, which the Content-Security-Policy forbids (script-src 'self', no
// 'unsafe-eval'; decision 0016). Its probe would be refused and reported on every load, so it is not tried.
import { z } from 'zod';

z.config({ jitless: true });
