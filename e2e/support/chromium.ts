// How every test, benchmark and check here starts the machine's Chromium (Debian's, never a downloaded
// build): the one place its path and switches are written.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Chromium features switched off on top of Playwright's own list. Every new browser window (each Playwright
 * context is one) preloads the address bar's two WebUI popups in a renderer of their own: about 1 s of CPU
 * a context on this machine, for popups no test ever shows (docs/performance.md, "Chromium's own windows").
 */
const OUR_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * The features Playwright itself disables, read from the installed playwright-core. Chromium keeps only the
 * last `--disable-features` it is given, so ours must repeat Playwright's or silently undo them (third-party
 * storage partitioning and HTTPS upgrades among them).
 */
function playwrightDisabledFeatures(): string[] {
  const require = createRequire(import.meta.url);
  const source = readFileSync(require.resolve('playwright-core/lib/coreBundle'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter/.exec(source)?.[1];
  const names = [...(list ?? '').matchAll(/^\s*"([A-Za-z0-9]+)",?\s*$/gm)].map((m) => m[1] as string);
  if (names.length === 0)
    throw new Error(
      "Playwright's disabled Chromium features were not found in playwright-core; update e2e/support/chromium.ts",
    );
  return names;
}

/** The switches every launch passes (the e2e config, the LTI spec's own browser, the benchmarks). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  `--disable-features=${[...playwrightDisabledFeatures(), ...OUR_DISABLED_FEATURES].join(',')}`,
];
