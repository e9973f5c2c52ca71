// Identity providers as the operator configures them (OIDC_PROVIDERS, FIREBASE_CONFIG): parsed and checked at
// start-up, with presets that fill in what Google, Microsoft Entra and Apple always need. Decision 0025.
import { z } from 'zod';

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((d) => d.replace(/^@/, ''))
  .pipe(z.string().regex(/^[a-z0-9.-]+\.[a-z0-9-]+$/, 'must be a domain such as example.com'));

const providerEntry = z
  .object({
    /** Short name in URLs and in the client's settings (mostRecentSiginProviderUsed). */
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be 1–32 lower-case letters, digits or dashes')
      .refine((v) => v !== 'firebase', 'firebase is the name of the Firebase adapter'),
    preset: z.enum(['google', 'microsoft', 'apple']).optional(),
    /** Where /.well-known/openid-configuration is found; presets fill it in. */
    issuer: z.string().url().optional(),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1).optional(),
    /** Apple signs its client secret itself: the team id, key id and the .p8 private key (PEM). */
    apple: z.object({ teamId: z.string(), keyId: z.string(), privateKey: z.string() }).optional(),
    scopes: z.array(z.string().regex(/^[\x21-\x7e]+$/)).optional(),
    /** The button says "Continue with {name}". */
    name: z.string().min(1).max(40).optional(),
    /**
     * The button's icon: a path on this server or a data:image URL (the page's Content-Security-Policy
     * loads images from nowhere else); presets have their own mark.
     */
    icon: z
      .string()
      .max(16_384)
      .refine(
        (v) => /^\/[^/]/.test(v) || v.startsWith('data:image/'),
        'must be a path such as /icons/idp.svg or a data:image URL',
      )
      .optional(),
    /** Only people whose address is in these domains may sign in through this provider (empty: anyone). */
    allowedDomains: z.array(domain).default([]),
    /** Whether someone without a Lantern account may create one by signing in here (SIGNUP still applies). */
    allowSignup: z.boolean().default(true),
    /**
     * Domains this provider is the authority for: a verified address there is linked to the Lantern account
     * of that address without an e-mail code. Anything else needs the code first.
     */
    trustedDomains: z.array(domain).default([]),
    /** Microsoft Entra: the tenants (tid) allowed; empty means any tenant (multi-tenant). */
    tenants: z.array(z.string()).default([]),
  })
  .strict();

export type ProviderKind = 'google' | 'microsoft' | 'apple' | 'oidc';

export interface IdentityProviderConfig {
  id: string;
  kind: ProviderKind;
  /** The issuer whose discovery document is read; for Entra the `{tenantid}` template is the token's. */
  issuer: string;
  clientId: string;
  clientSecret?: string;
  apple?: { teamId: string; keyId: string; privateKey: string };
  scopes: string[];
  name: string;
  icon: string | null;
  allowedDomains: string[];
  allowSignup: boolean;
  trustedDomains: string[];
  tenants: string[];
  /** Apple answers with a form post when it is asked for the address (its documented rule). */
  responseMode: 'query' | 'form_post';
}

const PRESETS = {
  google: {
    issuer: 'https://accounts.google.com',
    name: 'Google',
    // Google is the authority for its own consumer addresses.
    trustedDomains: ['gmail.com', 'googlemail.com'],
    responseMode: 'query',
  },
  microsoft: {
    // The multi-tenant endpoint: its discovery names the issuer `…/{tenantid}/v2.0`, checked against `tid`.
    issuer: 'https://login.microsoftonline.com/common/v2.0',
    name: 'Microsoft',
    trustedDomains: [],
    responseMode: 'query',
  },
  apple: {
    issuer: 'https://appleid.apple.com',
    name: 'Apple',
    trustedDomains: ['icloud.com', 'me.com', 'mac.com', 'privaterelay.appleid.com'],
    responseMode: 'form_post',
  },
} as const;

/** OIDC_PROVIDERS: a JSON array of provider entries (README, decision 0025). */
export const oidcProvidersSetting = z
  .string()
  .trim()
  .transform((v, zctx): unknown => {
    if (v === '') return [];
    try {
      return JSON.parse(v);
    } catch {
      zctx.addIssue({ code: 'custom', message: 'must be a JSON array of providers' });
      return z.NEVER;
    }
  })
  .pipe(z.array(providerEntry).max(20))
  .transform((entries, zctx): IdentityProviderConfig[] => {
    const seen = new Set<string>();
    const out: IdentityProviderConfig[] = [];
    for (const entry of entries) {
      if (seen.has(entry.id))
        zctx.addIssue({ code: 'custom', message: `provider id ${entry.id} is used twice` });
      seen.add(entry.id);
      const preset = entry.preset ? PRESETS[entry.preset] : null;
      const issuer = entry.issuer ?? preset?.issuer;
      if (!issuer) {
        zctx.addIssue({ code: 'custom', message: `provider ${entry.id} needs an issuer (or a preset)` });
        continue;
      }
      if (!entry.clientSecret && !entry.apple) {
        zctx.addIssue({ code: 'custom', message: `provider ${entry.id} needs clientSecret (or apple keys)` });
        continue;
      }
      const kind: ProviderKind = entry.preset ?? 'oidc';
      out.push({
        id: entry.id,
        kind,
        issuer,
        clientId: entry.clientId,
        ...(entry.clientSecret ? { clientSecret: entry.clientSecret } : {}),
        ...(entry.apple ? { apple: entry.apple } : {}),
        scopes:
          entry.scopes ?? (kind === 'apple' ? ['openid', 'email', 'name'] : ['openid', 'email', 'profile']),
        name: entry.name ?? preset?.name ?? entry.id,
        icon: entry.icon ?? null,
        allowedDomains: entry.allowedDomains,
        allowSignup: entry.allowSignup,
        trustedDomains:
          entry.trustedDomains.length > 0 ? entry.trustedDomains : [...(preset?.trustedDomains ?? [])],
        tenants: entry.tenants,
        responseMode: preset?.responseMode ?? 'query',
      });
    }
    return out;
  });

/** FIREBASE_CONFIG: the Firebase web app's keys (spec §7), JSON; empty means no Firebase adapter. */
export const firebaseSetting = z
  .string()
  .trim()
  .transform((v, zctx): unknown => {
    if (v === '') return null;
    try {
      return JSON.parse(v);
    } catch {
      zctx.addIssue({ code: 'custom', message: 'must be the Firebase web config as JSON' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .object({
        apiKey: z.string().min(1),
        authDomain: z.string().min(1),
        projectId: z.string().regex(/^[a-z0-9-]{4,40}$/, 'must be a Firebase project id'),
        storageBucket: z.string().optional(),
        messagingSenderId: z.string().optional(),
        appId: z.string().optional(),
        measurementId: z.string().optional(),
        vapidKey: z.string().optional(),
        /** The button text; "Continue with Google" by default (Firebase's popup is Google's chooser). */
        name: z.string().min(1).max(40).default('Google'),
        allowedDomains: z.array(domain).default([]),
        allowSignup: z.boolean().default(true),
        trustedDomains: z.array(domain).default(['gmail.com', 'googlemail.com']),
      })
      .strict()
      .nullable(),
  );
export type FirebaseConfig = NonNullable<z.infer<typeof firebaseSetting>>;
