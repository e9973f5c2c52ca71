// Vite build of the client: React, Tailwind, the comlink worker (ES module) and the Workbox service worker.
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { firstScreenEntry } from './scripts/first-screen-entry.ts';
import { precompress } from './scripts/precompress.ts';
import { signInPage } from './scripts/sign-in-page.ts';

/** Build id: goes into the SharedWorker's name so a deploy never talks to an old worker (ARCHITECTURE pitfalls). */
function buildId(): string {
  try {
    const hash = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    return `${hash}-${Date.now().toString(36)}`;
  } catch {
    return Date.now().toString(36);
  }
}

/** Where `npm run dev` runs the API server (scripts/dev.mjs); Vite itself takes 3000. */
const apiTarget = process.env.LANTERN_API_URL ?? 'http://localhost:3001';

export default defineConfig({
  define: { __BUILD_ID__: JSON.stringify(buildId()) },
  plugins: [
    react(),
    tailwindcss(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // Registered by src/app/service-worker.ts through workbox-window, in production builds only.
      injectRegister: false,
      // The manifest is a static file in public/ linked from index.html.
      manifest: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2,mp3}'],
        // Store screenshots are for the browser's install sheet, not for offline use.
        globIgnores: ['**/node_modules/**/*', 'screenshots/**'],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
    firstScreenEntry(fileURLToPath(new URL('.', import.meta.url))),
    signInPage(fileURLToPath(new URL('.', import.meta.url))),
    precompress(),
  ],
  // Browser code gets zod with its eval probe switched off before any schema is built (see the file).
  resolve: {
    alias: [
      {
        find: /^zod$/,
        replacement: fileURLToPath(new URL('./src/app/zod-without-eval.ts', import.meta.url)),
      },
    ],
  },
  worker: { format: 'es' },
  server: {
    port: 3000,
    strictPort: true,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, ws: true, changeOrigin: true },
    },
  },
  preview: { port: 3000 },
  build: {
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: {
      // The schemas only define values: a page that uses none of a file's exports does not load it, and
      // an unused schema is dropped, so zod stays off the first rows' path (decision 0036).
      // (No manualPureFunctions for `z`: it would drop zod-without-eval.ts's z.config call.)
      treeshake: { moduleSideEffects: [{ test: /\/schemas\/.*\.ts$/, sideEffects: false }] },
    },
  },
});
