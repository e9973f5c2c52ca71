// Names and Role Provisioning: the course's roster read from the platform (a service token bought with a
// JWT assertion signed by the tool key, then the membership container page by page along Link rel=next),
// each active member given an account and a membership, so a class can find each other before they all
// have launched. Runs after the launch, in the background, at most once per ROSTER_INTERVAL_MS per course.
import { randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { SignJWT } from 'jose';
import type { Db } from '../db/client.ts';
import { ltiAccounts, ltiContexts, members } from '../db/schema.ts';
import { leaveWorkspace } from '../services/workspace-members.ts';
import { NRPS_SCOPE } from './claims.ts';
import { ensureAccount, ensureMember } from './course.ts';
import type { LtiContext } from './lti-context.ts';
import { PlatformRequestError, platformRequest } from './platform-requests.ts';
import type { PlatformRow } from './platforms.ts';
import { workspaceRoleOf } from './roles.ts';
import { toolKey } from './tool-key.ts';

export const ROSTER_INTERVAL_MS = 10 * 60_000;
/** Most pages read in one sync (a loop of `next` links must end). */
const MAX_PAGES = 50;
const CONTAINER = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';

interface RosterMember {
  user_id?: unknown;
  name?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  roles?: unknown;
  status?: unknown;
}

/** The `next` address of a Link header, or null. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match?.[1] && /(^|;)\s*rel="?next"?\s*(;|$)/.test(match[2] ?? '')) return match[1];
  }
  return null;
}

async function serviceToken(
  ctx: Pick<LtiContext, 'config' | 'secrets'>,
  platform: PlatformRow,
): Promise<string> {
  const key = await toolKey(ctx.secrets);
  const assertion = await new SignJWT({ jti: randomBytes(16).toString('base64url') })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid })
    .setIssuer(platform.clientId)
    .setSubject(platform.clientId)
    .setAudience(platform.tokenUrl)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key.privateKey);
  const answer = await platformRequest(ctx.config, platform.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      scope: NRPS_SCOPE,
    }).toString(),
  });
  const token = (answer.json as { access_token?: unknown } | null)?.access_token;
  if (answer.status !== 200 || typeof token !== 'string')
    throw new PlatformRequestError(`The platform refused a service token (status ${answer.status})`);
  return token;
}

/**
 * Reads the whole roster and provisions it: active people get an account and a membership with their
 * role; once the whole roster has been read, learners of this platform who are no longer in it (or no
 * longer active) leave the workspace. Anyone who joined otherwise is left alone. The number seen active.
 */
export async function syncRoster(
  ctx: Pick<LtiContext, 'db' | 'config' | 'secrets' | 'broadcast' | 'realtime'>,
  platform: PlatformRow,
  institutionId: string,
  membershipsUrl: string,
): Promise<number> {
  const token = await serviceToken(ctx, platform);
  let url: string | null = membershipsUrl;
  let seen = 0;
  const active = new Set<string>();
  for (let page = 0; url && page < MAX_PAGES; page++) {
    const answer = await platformRequest(ctx.config, url, {
      headers: { authorization: `Bearer ${token}`, accept: CONTAINER },
    });
    const list = (answer.json as { members?: unknown } | null)?.members;
    if (answer.status !== 200 || !Array.isArray(list))
      throw new PlatformRequestError(`The platform's roster could not be read (status ${answer.status})`);
    for (const m of list as RosterMember[]) {
      if (typeof m.user_id !== 'string' || m.user_id === '' || m.user_id.length > 255) continue;
      if (m.status !== undefined && m.status !== 'Active') continue;
      active.add(m.user_id);
      const roles = Array.isArray(m.roles) ? m.roles.filter((r): r is string => typeof r === 'string') : [];
      const name =
        (typeof m.name === 'string' && m.name.trim().slice(0, 255)) ||
        [m.given_name, m.family_name]
          .filter((p) => typeof p === 'string')
          .join(' ')
          .trim()
          .slice(0, 255) ||
        'Course participant';
      const userId = await ensureAccount(ctx.db, platform.id, m.user_id, name);
      await ensureMember(ctx.db, institutionId, userId, workspaceRoleOf(roles));
      seen++;
    }
    const next = nextLink(answer.headers.get('link'));
    // A next page is read only from the same platform host as the first.
    url =
      next && URL.canParse(next, url) && new URL(next, url).origin === new URL(membershipsUrl).origin
        ? new URL(next, url).toString()
        : null;
  }
  // A roster cut short (too many pages) says nothing about who left.
  if (url === null) await removeDeparted(ctx, platform.id, institutionId, active);
  return seen;
}

async function removeDeparted(
  ctx: Pick<LtiContext, 'db' | 'broadcast' | 'realtime'>,
  platformId: string,
  institutionId: string,
  active: Set<string>,
): Promise<void> {
  const rows = await ctx.db
    .select({ subject: ltiAccounts.subject, userId: members.userId, role: members.role })
    .from(members)
    .innerJoin(
      ltiAccounts,
      and(eq(ltiAccounts.userId, members.userId), eq(ltiAccounts.platformId, platformId)),
    )
    .where(eq(members.institutionId, institutionId));
  for (const row of rows) {
    // Only learners: a platform administrator who launches without being enrolled is in no roster, and
    // must not be put out of the workspace they just opened.
    if (active.has(row.subject) || row.role !== 'member') continue;
    await leaveWorkspace(ctx, row.userId, institutionId);
  }
}

/** Claims the course's sync slot (one node, once per interval) and runs the sync in the background. */
export function syncRosterSoon(
  ctx: LtiContext,
  platform: PlatformRow,
  contextId: string,
  institutionId: string,
  membershipsUrl: string,
): void {
  void (async () => {
    if (!(await claimSync(ctx.db, platform.id, contextId))) return;
    const seen = await syncRoster(ctx, platform, institutionId, membershipsUrl);
    ctx.broadcast.toInstitution(institutionId, 'refresh', { value: 'members' });
    ctx.log.info({ platformId: platform.id, institutionId, seen }, 'LTI roster synced');
  })().catch((err: unknown) => {
    ctx.log.warn({ err, platformId: platform.id }, 'LTI roster sync failed');
  });
}

async function claimSync(db: Db, platformId: string, contextId: string): Promise<boolean> {
  const now = new Date();
  const claimed = await db
    .update(ltiContexts)
    .set({ rosterSyncedAt: now })
    .where(
      and(
        eq(ltiContexts.platformId, platformId),
        eq(ltiContexts.contextId, contextId),
        or(
          isNull(ltiContexts.rosterSyncedAt),
          lt(ltiContexts.rosterSyncedAt, new Date(now.getTime() - ROSTER_INTERVAL_MS)),
        ),
      ),
    )
    .returning();
  return claimed.length > 0;
}
