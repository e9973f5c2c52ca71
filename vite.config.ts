// Vite build of the client: React, Tailwind, the comlink worker (ES module) and the Workbox service worker.
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { emojiFont } from './scripts/emoji-font.ts';
import { firstScreenEntry } from './scripts/first-screen-entry.ts';
import { precompress } from './scripts/precompress.ts';
import { signInPage } from './scripts/sign-in-page.ts';
import { toastSwipe } from './scripts/toast-swipe.ts';

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

/** This build's id, computed once: the bundles and version.json must name the same one. */
const BUILD_ID = buildId();

/**
 * Writes version.json beside index.html: the server reads it and announces the build (GET /api/version, the
 * socket's serverBuild), so open tabs of an older build offer a reload (decision 0043).
 */
function versionFile(): Plugin {
  let outDir = 'dist';
  return {
    name: 'lantern-version-file',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      writeFileSync(path.join(outDir, 'version.json'), `${JSON.stringify({ buildId: BUILD_ID })}\n`);
    },
  };
}

/** Where `npm run dev` runs the API server (scripts/dev.mjs); Vite itself takes 3000. */
const apiTarget = process.env.LANTERN_API_URL ?? 'http://localhost:3001';

export default defineConfig({
  define: { __BUILD_ID__: JSON.stringify(BUILD_ID) },
  plugins: [
    emojiFont(),
    toastSwipe(),
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
        // The emoji font's subsets are fetched on demand and cached then (sw/sw.ts): 4 MB nobody with an
        // emoji font of their own should download.
        globIgnores: ['**/node_modules/**/*', 'screenshots/**', 'assets/noto-color-emoji-*'],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
    firstScreenEntry(fileURLToPath(new URL('.', import.meta.url))),
    signInPage(fileURLToPath(new URL('.', import.meta.url))),
    versionFile(),
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
