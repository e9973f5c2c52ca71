// A readable name for a signed-in device, made from its user agent: "Chrome on Android", "Safari on
// iPhone". Made on the server so every client (and the e-mail confirming an account deletion, later a
// "new sign-in" notice) names devices the same way.

/** Browsers, most specific first: Edge and Opera also say "Chrome", Chrome also says "Safari". */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bSafari\//, 'Safari'],
];

/** Systems, most specific first: an iPhone also says "Mac OS X", Android also says "Linux". */
const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (ua: string, table: [RegExp, string][]) => table.find(([pattern]) => pattern.test(ua))?.[1];

/** "Browser on System", either alone when the other is unknown, else "Unknown device". */
export function deviceName(userAgent: string | null | undefined): string {
  // User agents are client text: bounded before any pattern runs (decision 0019).
  const ua = (userAgent ?? '').slice(0, 512);
  const browser = first(ua, BROWSERS);
  const system = first(ua, SYSTEMS);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}

/** Phones and tablets, for the icon people recognise "the lost phone" by. */
export const isHandheld = (userAgent: string | null | undefined) =>
  /\b(Mobile|Android|iPhone|iPad)\b/.test((userAgent ?? '').slice(0, 512));
