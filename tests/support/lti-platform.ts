// A learning platform for the tests, speaking LTI 1.3 on the wire with jose: login initiation towards the
// tool, an authorization endpoint that answers with a form-posted id_token (as a browser would receive
// it), a key set that can rotate, a token endpoint that checks the tool's signed assertion against the
// tool's key set, Names and Role Provisioning with paging, a deep-linking return that checks the tool's
// signed answer, and a course page embedding the tool in an iframe. Configured like Moodle or like Canvas.
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createRemoteJWKSet,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose';

export type PlatformStyle = 'moodle' | 'canvas';

export interface LaunchPerson {
  sub: string;
  name: string;
  email?: string;
  roles: string[];
  /** In a roster: Active unless said otherwise. */
  status?: 'Active' | 'Inactive' | 'Deleted';
}

export interface LaunchSpec {
  person: LaunchPerson;
  context: { id: string; title: string };
  resourceLink?: { id: string; title: string };
  messageType?: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest';
  custom?: Record<string, string>;
  /** Offer Names and Role Provisioning for the context. */
  nrps?: boolean;
  /** Claims to add or override (refusal tests). */
  extra?: Record<string, unknown>;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface ToolRegistration {
  /** The tool's origin (its /lti/keys). */
  toolUrl: string;
  /** The login initiation address Lantern showed for this platform. */
  loginUrl: string;
  clientId: string;
  deploymentId: string;
}

const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';

/** The platform side of LTI Client Side postMessages: put and get for the tool's frame. */
const STORAGE_FRAME_SCRIPT = `
  const store = {};
  window.storedByTool = store;
  window.addEventListener('message', (e) => {
    const d = e.data || {};
    if (d.subject === 'lti.put_data') {
      store[d.key] = d.value;
      e.source.postMessage({ subject: 'lti.put_data.response', message_id: d.message_id, key: d.key, value: d.value }, e.origin);
    }
    if (d.subject === 'lti.get_data') {
      e.source.postMessage({ subject: 'lti.get_data.response', message_id: d.message_id, key: d.key, value: store[d.key] }, e.origin);
    }
  });
`;

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(6).toString('hex');
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

const formOf = (action: string, fields: Record<string, string>, target = '_self') =>
  `<!doctype html><html><body><form id="f" method="post" action="${action}" target="${target}">${Object.entries(
    fields,
  )
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${v.replace(/"/g, '&quot;')}">`)
    .join('')}</form><script>document.getElementById('f').submit()</script></body></html>`;

export class TestPlatform {
  readonly style: PlatformStyle;
  url = '';
  private server: http.Server;
  private keys: SigningKey[] = [];
  private readonly specs = new Map<string, LaunchSpec>();
  tool: ToolRegistration | null = null;
  readonly clientId = randomUUID();
  readonly deploymentId: string;
  /** Roster per context id, served by NRPS in pages of `pageSize`. */
  readonly rosters = new Map<string, LaunchPerson[]>();
  pageSize = 2;
  /** Service tokens issued (after a valid tool assertion), and NRPS pages served. */
  tokensIssued = 0;
  pagesServed = 0;
  /** Deep-linking answers received and verified. */
  readonly deepLinks: JWTPayload[] = [];

  constructor(style: PlatformStyle) {
    this.style = style;
    this.deploymentId = style === 'canvas' ? `42:${randomBytes(20).toString('hex')}` : '1';
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      });
    });
  }

  /** Moodle names itself by its site address; Canvas by one fixed issuer for all its hosts. */
  get issuer(): string {
    return this.style === 'canvas' ? 'https://canvas.instructure.com' : this.url;
  }
  get authUrl(): string {
    return `${this.url}${this.style === 'canvas' ? '/api/lti/authorize_redirect' : '/mod/lti/auth.php'}`;
  }
  get tokenUrl(): string {
    return `${this.url}${this.style === 'canvas' ? '/login/oauth2/token' : '/mod/lti/token.php'}`;
  }
  get keySetUrl(): string {
    return `${this.url}${this.style === 'canvas' ? '/api/lti/security/jwks' : '/mod/lti/certs.php'}`;
  }
  get currentKid(): string {
    return this.keys[0]?.kid ?? '';
  }

  /** Listens on 127.0.0.1 (a different site from a tool on localhost). */
  async start(host = '127.0.0.1'): Promise<this> {
    this.keys = [await newKey()];
    await new Promise<void>((resolve) => this.server.listen(0, host, resolve));
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The registration body for Lantern's platform form. */
  registration(name = this.style === 'canvas' ? 'Canvas' : 'Moodle') {
    return {
      name,
      issuer: this.issuer,
      clientId: this.clientId,
      authLoginUrl: this.authUrl,
      tokenUrl: this.tokenUrl,
      keySetUrl: this.keySetUrl,
      deploymentIds: [this.deploymentId],
    };
  }

  /** A new signing key; the old one leaves the key set unless `keepOld`. */
  async rotate(keepOld = false): Promise<void> {
    const fresh = await newKey();
    this.keys = keepOld ? [fresh, ...this.keys] : [fresh];
  }

  /** The login initiation address for a launch (what the platform's course page loads). */
  loginInitiation(
    spec: LaunchSpec,
    method: 'GET' | 'POST' = 'GET',
    storageTarget?: string,
  ): { url: string; fields: Record<string, string> } {
    if (!this.tool) throw new Error('register the tool first');
    const hint = randomUUID();
    this.specs.set(hint, spec);
    const fields: Record<string, string> = {
      iss: this.issuer,
      login_hint: spec.person.sub,
      target_link_uri: `${this.tool.toolUrl}/lti/launch`,
      lti_message_hint: hint,
      client_id: this.clientId,
      lti_deployment_id: this.deploymentId,
      ...(storageTarget ? { lti_storage_target: storageTarget } : {}),
    };
    if (method === 'POST') return { url: this.tool.loginUrl, fields };
    const url = new URL(this.tool.loginUrl);
    for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
    return { url: url.toString(), fields };
  }

  /** The id_token this platform would issue for a spec (refusal tests change it through `extra` and `sign`). */
  claims(spec: LaunchSpec, nonce: string): JWTPayload {
    const messageType = spec.messageType ?? 'LtiResourceLinkRequest';
    return {
      iss: this.issuer,
      aud: this.clientId,
      sub: spec.person.sub,
      nonce,
      name: spec.person.name,
      ...(spec.person.email ? { email: spec.person.email } : {}),
      [`${LTI}message_type`]: messageType,
      [`${LTI}version`]: '1.3.0',
      [`${LTI}deployment_id`]: this.deploymentId,
      [`${LTI}target_link_uri`]: `${this.tool?.toolUrl}/lti/launch`,
      [`${LTI}roles`]: spec.person.roles,
      [`${LTI}context`]: { id: spec.context.id, title: spec.context.title, type: ['CourseOffering'] },
      ...(spec.resourceLink ? { [`${LTI}resource_link`]: spec.resourceLink } : {}),
      ...(spec.custom ? { [`${LTI}custom`]: spec.custom } : {}),
      ...(messageType === 'LtiDeepLinkingRequest'
        ? {
            'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': {
              deep_link_return_url: `${this.url}/deep-link-return`,
              accept_types: ['ltiResourceLink'],
              accept_presentation_document_targets: ['iframe', 'window'],
              data: 'opaque-platform-data',
            },
          }
        : {}),
      ...(spec.nrps
        ? {
            'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice': {
              context_memberships_url: `${this.url}/nrps/${encodeURIComponent(spec.context.id)}`,
              service_versions: ['2.0'],
            },
          }
        : {}),
      ...spec.extra,
    };
  }

  /** Signs claims with the current key (or as told), exp 5 minutes unless the claims say otherwise. */
  async sign(claims: JWTPayload, opts: { kid?: string; key?: CryptoKey } = {}): Promise<string> {
    const key = this.keys[0];
    if (!key) throw new Error('not started');
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iat: now, exp: now + 300, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? key.kid, typ: 'JWT' })
      .sign(opts.key ?? key.privateKey);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const path = url.pathname;
    if (req.method === 'GET' && path === new URL(this.keySetUrl).pathname) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: this.keys.map((k) => k.publicJwk) }));
      return;
    }
    if (req.method === 'GET' && path === new URL(this.authUrl).pathname) return this.authorize(url, res);
    if (req.method === 'POST' && path === new URL(this.tokenUrl).pathname) return this.token(req, res);
    if (req.method === 'GET' && path.startsWith('/nrps/')) return this.nrps(req, url, res);
    if (req.method === 'POST' && path === '/deep-link-return') return this.deepLinkReturn(req, res);
    if (req.method === 'GET' && path.startsWith('/course/')) return this.coursePage(url, res);
    if (req.method === 'GET' && path === '/.well-known/openid-configuration') return this.configuration(res);
    if (req.method === 'POST' && path === '/register') return this.register(req, res);
    res.writeHead(404).end();
  }

  /** The OIDC authorization request: the platform's checks, then the id_token as an auto-posting form. */
  private async authorize(url: URL, res: http.ServerResponse) {
    const q = Object.fromEntries(url.searchParams);
    const spec = q.lti_message_hint ? this.specs.get(q.lti_message_hint) : undefined;
    const problem =
      q.scope !== 'openid'
        ? 'invalid_scope'
        : q.response_type !== 'id_token' || q.response_mode !== 'form_post'
          ? 'unsupported_response_type'
          : q.client_id !== this.clientId
            ? 'unauthorized_client'
            : !q.redirect_uri?.endsWith('/lti/launch')
              ? 'invalid_request_object'
              : !q.nonce || !q.state || q.prompt !== 'none'
                ? 'invalid_request'
                : !spec || q.login_hint !== spec.person.sub
                  ? 'login_required'
                  : null;
    if (problem || !spec || !this.tool) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(problem ?? 'no tool');
      return;
    }
    const idToken = await this.sign(this.claims(spec, q.nonce ?? ''));
    // The form posts to the tool's launch address as registered (the browser follows it).
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(formOf(`${this.tool.toolUrl}/lti/launch`, { id_token: idToken, state: q.state ?? '' }));
  }

  private async readBody(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  private toolKeys() {
    if (!this.tool) throw new Error('no tool');
    return createRemoteJWKSet(new URL(`${this.tool.toolUrl}/lti/keys`));
  }

  /** Client credentials with a JWT assertion signed by the tool's key (checked against the tool's key set). */
  private async token(req: http.IncomingMessage, res: http.ServerResponse) {
    const form = new URLSearchParams(await this.readBody(req));
    try {
      if (form.get('grant_type') !== 'client_credentials') throw new Error('unsupported_grant_type');
      if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
        throw new Error('invalid_request');
      await jwtVerify(form.get('client_assertion') ?? '', this.toolKeys(), {
        issuer: this.clientId,
        subject: this.clientId,
        audience: this.tokenUrl,
      });
      this.tokensIssued++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          access_token: `nrps-${this.tokensIssued}`,
          token_type: 'Bearer',
          expires_in: 3600,
          scope: form.get('scope'),
        }),
      );
    } catch (err) {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: (err as Error).message }));
    }
  }

  private nrps(req: http.IncomingMessage, url: URL, res: http.ServerResponse) {
    if (!/^Bearer nrps-\d+$/.test(req.headers.authorization ?? '')) {
      res.writeHead(401).end();
      return;
    }
    const contextId = decodeURIComponent(url.pathname.slice('/nrps/'.length));
    const roster = this.rosters.get(contextId) ?? [];
    const page = Number(url.searchParams.get('page') ?? '0');
    const slice = roster.slice(page * this.pageSize, (page + 1) * this.pageSize);
    const headers: Record<string, string> = {
      'content-type': 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json',
    };
    if ((page + 1) * this.pageSize < roster.length) {
      const next = new URL(url);
      next.searchParams.set('page', String(page + 1));
      headers.link = `<${next}>; rel="next"`;
    }
    this.pagesServed++;
    res.writeHead(200, headers);
    res.end(
      JSON.stringify({
        id: url.toString(),
        context: { id: contextId },
        members: slice.map((p) => ({
          status: p.status ?? 'Active',
          user_id: p.sub,
          name: p.name,
          roles: p.roles,
        })),
      }),
    );
  }

  private async deepLinkReturn(req: http.IncomingMessage, res: http.ServerResponse) {
    const form = new URLSearchParams(await this.readBody(req));
    const { payload } = await jwtVerify(form.get('JWT') ?? '', this.toolKeys(), {
      issuer: this.clientId,
      audience: this.issuer,
    });
    this.deepLinks.push(payload);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><h1 id="placed">Placed in the course</h1>');
  }

  /** A course page with the tool in an iframe, launched like a platform does (login initiation in the frame). */
  private coursePage(url: URL, res: http.ServerResponse) {
    const hint = url.searchParams.get('hint') ?? '';
    const spec = this.specs.get(hint);
    if (!spec || !this.tool) {
      res.writeHead(404).end();
      return;
    }
    const login = new URL(this.tool.loginUrl);
    for (const [k, v] of Object.entries({
      iss: this.issuer,
      login_hint: spec.person.sub,
      target_link_uri: `${this.tool.toolUrl}/lti/launch`,
      lti_message_hint: hint,
      client_id: this.clientId,
      lti_deployment_id: this.deploymentId,
      // Like Moodle 4 and Canvas: the page offers postMessage storage to the tool it frames.
      lti_storage_target: '_parent',
    }))
      login.searchParams.set(k, v);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><meta charset="utf-8"><title>${spec.context.title}</title></head><body style="margin:0;font-family:sans-serif">` +
        `<header style="padding:12px 16px;background:#f98012;color:#fff">${spec.context.title} · ${this.style}</header>` +
        `<iframe id="tool" title="Lantern" src="${login}" style="width:100%;height:calc(100vh - 48px);border:0" allow="clipboard-write"></iframe>` +
        `<script>${STORAGE_FRAME_SCRIPT}</script></body></html>`,
    );
  }

  /** Dynamic registration: the token the platform hands the tool, and what the tool sent. */
  readonly registrationToken = randomBytes(16).toString('hex');
  registrationRequest: Record<string, unknown> | null = null;

  /** The address the platform opens the tool's registration page with. */
  registrationLaunch(toolRegistrationUrl: string): string {
    const u = new URL(toolRegistrationUrl);
    u.searchParams.set('openid_configuration', `${this.url}/.well-known/openid-configuration`);
    u.searchParams.set('registration_token', this.registrationToken);
    return u.toString();
  }

  private configuration(res: http.ServerResponse) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        issuer: this.issuer,
        authorization_endpoint: this.authUrl,
        token_endpoint: this.tokenUrl,
        jwks_uri: this.keySetUrl,
        registration_endpoint: `${this.url}/register`,
        scopes_supported: [
          'openid',
          'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
        ],
        response_types_supported: ['id_token'],
        id_token_signing_alg_values_supported: ['RS256'],
        'https://purl.imsglobal.org/spec/lti-platform-configuration': {
          product_family_code: this.style,
          version: '4.4',
          messages_supported: [{ type: 'LtiResourceLinkRequest' }, { type: 'LtiDeepLinkingRequest' }],
        },
      }),
    );
  }

  /** The registration endpoint: checks the token and the tool's configuration, answers with a client id. */
  private async register(req: http.IncomingMessage, res: http.ServerResponse) {
    if (req.headers.authorization !== `Bearer ${this.registrationToken}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
      return;
    }
    const body = JSON.parse(await this.readBody(req)) as Record<string, unknown>;
    const config = body['https://purl.imsglobal.org/spec/lti-tool-configuration'] as
      | { target_link_uri?: string }
      | undefined;
    if (
      typeof body.initiate_login_uri !== 'string' ||
      typeof body.jwks_uri !== 'string' ||
      !config?.target_link_uri
    ) {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_client_metadata"}');
      return;
    }
    this.registrationRequest = body;
    this.tool = {
      toolUrl: new URL(config.target_link_uri).origin,
      loginUrl: body.initiate_login_uri,
      clientId: this.clientId,
      deploymentId: this.deploymentId,
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...body,
        client_id: this.clientId,
        'https://purl.imsglobal.org/spec/lti-tool-configuration': {
          ...config,
          deployment_id: this.deploymentId,
        },
      }),
    );
  }

  /** Remembers a launch for the course page (e2e): the address of its page. */
  coursePageFor(spec: LaunchSpec): string {
    const hint = randomUUID();
    this.specs.set(hint, spec);
    return `${this.url}/course/${encodeURIComponent(spec.context.id)}?hint=${hint}`;
  }
}
