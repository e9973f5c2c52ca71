// A provider's signing keys (its JWKS), cached by key id. A token naming a key we do not hold makes one
// fresh fetch (the provider rotated its keys), at most once per REFETCH_COOLDOWN_MS, so that tokens with
// made-up key ids cannot turn the server into a fetch loop against the provider.
import { importJWK, type JWK } from 'jose';
import { IdTokenRefused } from './id-token-refused.ts';

/** Signature algorithms accepted on ID tokens: asymmetric only (never `none`, never HMAC with a public key). */
export const ACCEPTED_ALGORITHMS = new Set([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
]);

const REFETCH_COOLDOWN_MS = 30_000;
const MAX_KEYS = 50;

export type JsonFetch = (url: string) => Promise<unknown>;
type VerifyKey = Awaited<ReturnType<typeof importJWK>>;

export class KeySet {
  private keys: JWK[] = [];
  private loaded = false;
  private lastRefetch = 0;
  private loading: Promise<void> | null = null;

  constructor(
    private readonly url: () => Promise<string>,
    private readonly fetchJson: JsonFetch,
  ) {}

  private load(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const body = (await this.fetchJson(await this.url())) as { keys?: unknown };
        if (!Array.isArray(body?.keys)) throw new Error('the key set has no keys');
        // Signing keys only; an encryption key or a symmetric one is never used to check a signature.
        this.keys = (body.keys as JWK[])
          .filter(
            (k) => k && typeof k === 'object' && k.kty !== 'oct' && (k.use === undefined || k.use === 'sig'),
          )
          .slice(0, MAX_KEYS);
        this.loaded = true;
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  private pick(kid: string | undefined, alg: string): JWK | undefined {
    const fits = (k: JWK) => (k.alg === undefined || k.alg === alg) && ktyFits(k.kty, alg);
    if (kid !== undefined) return this.keys.find((k) => k.kid === kid && fits(k));
    // A token without a key id is accepted only when exactly one key could have signed it.
    const candidates = this.keys.filter(fits);
    return candidates.length === 1 ? candidates[0] : undefined;
  }

  /** The key that must have signed a token with this header; IdTokenRefused when there is none. */
  async keyFor(kid: string | undefined, alg: string): Promise<VerifyKey> {
    if (!this.loaded) await this.load();
    let jwk = this.pick(kid, alg);
    if (!jwk && Date.now() - this.lastRefetch > REFETCH_COOLDOWN_MS) {
      this.lastRefetch = Date.now();
      await this.load();
      jwk = this.pick(kid, alg);
    }
    if (!jwk) throw new IdTokenRefused('the token was signed with a key the provider does not publish');
    return importJWK(jwk, alg);
  }
}

function ktyFits(kty: string | undefined, alg: string): boolean {
  if (alg.startsWith('RS') || alg.startsWith('PS')) return kty === 'RSA';
  if (alg.startsWith('ES')) return kty === 'EC';
  return kty === 'OKP';
}
