// Build id injected by vite.config.ts (`define`); names the SharedWorker so a deploy gets a fresh one.
declare const __BUILD_ID__: string;
