// The configured identity providers at run time: each one's discovery document and key set (fetched on
// first use and cached), the authorization URL of a sign-in, the code exchange at the token endpoint and
// the ID-token check with the provider's rules. All requests go through server/outbound/: the URLs are the
// operator's, so loopback and private addresses are allowed (an intranet provider, the tests' providers).
import { importPKCS8, type JWTPayload, SignJWT } from 'jose';
import type { Config } from '../config.ts';
import { HttpError } from '../errors.ts';
import { outboundFetch } from '../outbound/outbound-request.ts';
import { type IdClaims, verifyIdToken } from './id-token.ts';
import { IdTokenRefused } from './id-token-refused.ts';
import { KeySet } from './key-set.ts';
import type { FirebaseConfig, IdentityProviderConfig } from './provider-config.ts';

const DISCOVERY_TTL_MS = 60 * 60_000;
const FETCH_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 512 * 1024;
/** An ID token fresh from a code exchange is seconds old; ten minutes allows for slow clocks and links. */
const CODE_FLOW_MAX_AGE_S = 10 * 60;
/** Firebase ID tokens live an hour; a sign-in must be recent (auth_time) to count as one. */
const FIREBASE_MAX_AGE_S = 60 * 60;
const FIREBASE_AUTH_MAX_AGE_S = 10 * 60;
const ENTRA_TENANT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  end_session_endpoint?: string;
  token_endpoint_auth_methods_supported?: string[];
}

const fetchOut = outboundFetch({ allowPrivate: true });

/** Unreachable or misbehaving provider: a 502 with a sentence, never a stack trace. */
export class ProviderUnavailable extends HttpError {
  constructor(name: string) {
    super(502, `${name} could not be reached. Please try again in a moment.`);
  }
}

/**
 * A refusal stays a refusal (400); anything else while checking a token (the key set unreachable or
 * malformed) means the provider is not usable right now: a 502 with a sentence, not a 500.
 */
async function unavailableUnlessRefused<T>(name: string, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new ProviderUnavailable(name);
  }
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text.length > MAX_BODY_BYTES) throw new Error('answer too large');
  return JSON.parse(text);
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetchOut(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return readJson(res);
}

export interface ProviderSummary {
  id: string;
  name: string;
  icon: string | null;
  kind: IdentityProviderConfig['kind'];
}

export class IdentityProvider {
  private discovery: { doc: Discovery; at: number } | null = null;
  readonly keys: KeySet;

  constructor(
    readonly config: IdentityProviderConfig,
    private readonly redirectUri: string,
  ) {
    this.keys = new KeySet(async () => (await this.discover()).jwks_uri, getJson);
  }

  get summary(): ProviderSummary {
    const { id, name, icon, kind } = this.config;
    return { id, name, icon, kind };
  }

  async discover(): Promise<Discovery> {
    if (this.discovery && Date.now() - this.discovery.at < DISCOVERY_TTL_MS) return this.discovery.doc;
    let doc: Discovery;
    try {
      doc = (await getJson(
        `${this.config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
      )) as Discovery;
    } catch {
      throw new ProviderUnavailable(this.config.name);
    }
    for (const field of ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const)
      if (typeof doc[field] !== 'string' || !URL.canParse(doc[field]))
        throw new ProviderUnavailable(this.config.name);
    this.discovery = { doc, at: Date.now() };
    return doc;
  }

  /** The provider's page for one sign-in: code flow, PKCE S256, state, nonce, the account chooser. */
  async authorizationUrl(p: { state: string; nonce: string; codeChallenge: string }): Promise<string> {
    const doc = await this.discover();
    const url = new URL(doc.authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.config.clientId);
    url.searchParams.set('redirect_uri', this.redirectUri);
    url.searchParams.set('scope', this.config.scopes.join(' '));
    url.searchParams.set('state', p.state);
    url.searchParams.set('nonce', p.nonce);
    url.searchParams.set('code_challenge', p.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    // The account chooser every time (spec §7): a shared computer must not sign in as the last person.
    url.searchParams.set('prompt', 'select_account');
    if (this.config.responseMode === 'form_post') url.searchParams.set('response_mode', 'form_post');
    return url.toString();
  }

  private async clientSecret(): Promise<string> {
    const apple = this.config.apple;
    if (!apple) return this.config.clientSecret ?? '';
    // Apple's client secret is a short-lived ES256 JWT signed with the developer's key.
    const key = await importPKCS8(apple.privateKey, 'ES256');
    return new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: apple.keyId })
      .setIssuer(apple.teamId)
      .setSubject(this.config.clientId)
      .setAudience('https://appleid.apple.com')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
  }

  /** Trades the authorization code for tokens and returns the verified ID token's claims. */
  async exchange(code: string, codeVerifier: string, nonce: string): Promise<IdClaims> {
    const doc = await this.discover();
    const secret = await this.clientSecret();
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.redirectUri,
      code_verifier: codeVerifier,
    });
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    const methods = doc.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    if (methods.includes('client_secret_basic')) {
      const basic = `${encodeURIComponent(this.config.clientId)}:${encodeURIComponent(secret)}`;
      headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
    } else {
      form.set('client_id', this.config.clientId);
      form.set('client_secret', secret);
    }
    let res: Response;
    try {
      res = await fetchOut(doc.token_endpoint, {
        method: 'POST',
        headers,
        body: form.toString(),
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch {
      throw new ProviderUnavailable(this.config.name);
    }
    const body = (await readJson(res).catch(() => ({}))) as { id_token?: unknown; error?: unknown };
    if (!res.ok || typeof body.id_token !== 'string') {
      // invalid_grant: a code used twice, expired, or issued for another PKCE verifier.
      throw new IdTokenRefused(
        `${this.config.name} did not accept this sign-in (${String(body.error ?? res.status)})`,
      );
    }
    const idToken = body.id_token;
    return unavailableUnlessRefused(this.config.name, () =>
      verifyIdToken(idToken, {
        keys: this.keys,
        issuer: this.issuerCheck(doc),
        clientId: this.config.clientId,
        nonce,
        maxAgeSeconds: CODE_FLOW_MAX_AGE_S,
      }),
    );
  }

  private issuerCheck(doc: Discovery): string | ((iss: string, payload: JWTPayload) => boolean) {
    if (!doc.issuer.includes('{tenantid}')) return doc.issuer;
    // Entra's multi-tenant discovery names a template; the token's own tenant fills it in.
    const tenants = this.config.tenants;
    return (iss, payload) => {
      const tid = payload.tid;
      if (typeof tid !== 'string' || !ENTRA_TENANT.test(tid)) return false;
      if (tenants.length > 0 && !tenants.includes(tid)) return false;
      return iss === doc.issuer.replace('{tenantid}', tid);
    };
  }
}

/** Firebase Authentication's ID tokens (the optional adapter): Google's securetoken issuer per project. */
export class FirebaseVerifier {
  readonly keys: KeySet;
  constructor(
    readonly config: FirebaseConfig,
    jwksUrl: string,
  ) {
    this.keys = new KeySet(async () => jwksUrl, getJson);
  }

  get issuer(): string {
    return `https://securetoken.google.com/${this.config.projectId}`;
  }

  async verify(idToken: string): Promise<IdClaims> {
    const claims = await unavailableUnlessRefused('Firebase', () =>
      verifyIdToken(idToken, {
        keys: this.keys,
        issuer: this.issuer,
        clientId: this.config.projectId,
        maxAgeSeconds: FIREBASE_MAX_AGE_S,
      }),
    );
    const authTime = typeof claims.auth_time === 'number' ? claims.auth_time : 0;
    if (Date.now() / 1000 - authTime > FIREBASE_AUTH_MAX_AGE_S)
      throw new IdTokenRefused('the sign-in is too old; sign in again');
    return claims;
  }
}

export class ProviderDirectory {
  readonly providers: Map<string, IdentityProvider>;
  readonly firebase: FirebaseVerifier | null;

  constructor(
    config: Pick<Config, 'OIDC_PROVIDERS' | 'FIREBASE_CONFIG' | 'FIREBASE_JWKS_URL' | 'PUBLIC_URL'>,
  ) {
    const redirectUri = new URL('/api/auth/provider/callback', config.PUBLIC_URL).toString();
    this.providers = new Map(config.OIDC_PROVIDERS.map((p) => [p.id, new IdentityProvider(p, redirectUri)]));
    this.firebase = config.FIREBASE_CONFIG
      ? new FirebaseVerifier(config.FIREBASE_CONFIG, config.FIREBASE_JWKS_URL)
      : null;
  }

  get(id: string): IdentityProvider | undefined {
    return this.providers.get(id);
  }
}
