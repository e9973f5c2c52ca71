// Sign-in codes: six random digits mailed to an address, valid 10 minutes, with request limits per address,
// per (address, IP) and per IP, and growing delays after wrong guesses. Built so that a stranger can neither
// void nor lock out the code its owner was sent (decision 0014): a new request never replaces an earlier
// code, a wrong guess never voids one. Only an HMAC of each code (keyed by a secret pepper) is stored, so
// the database alone cannot be used to sign in.
import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, count, eq, gt, lt, max, ne, type SQL } from 'drizzle-orm';
import { OTP_LENGTH } from '../../schemas/protocol/index.ts';
import { isAgentEmail } from '../agents/agents.ts';
import type { AppContext } from '../context.ts';
import { signinCodes, signinFailures, signinRequests } from '../db/schema.ts';
import { badRequest, HttpError, tooManyRequests } from '../errors.ts';
import { accountDeletionCodeMail, signinCodeMail } from '../mail/templates.ts';
import { requireSignupAllowed } from './signup-policy.ts';

/** How long a code is valid: long enough to switch to a mail app on a slow phone, short enough to expire. */
export const OTP_TTL_MS = 10 * 60_000;
const RATE_WINDOW_MS = 60 * 60_000;

/**
 * Wrong guesses allowed without delay, per scope, within an hour. Beyond them the k-th further guess must
 * wait 2^k seconds after the previous one (capped at an hour). The (address, IP) scope is tight: that is
 * one person mistyping or one attacker. The per-address scope is wider so that a stranger's guesses from a
 * few addresses do not slow the owner; it still stops a guesser that spreads over many IPs. The per-IP
 * scope stops one IP spraying guesses over many addresses.
 */
const FREE_FAILURES = { addressAndIp: 5, address: 20, ip: 30 } as const;
const MAX_DELAY_S = 60 * 60;

type OtpContext = Pick<AppContext, 'db' | 'config' | 'mail' | 'log' | 'secrets'> & { mailToFiles: boolean };

/**
 * What a code is for. A code mailed for one purpose never works for the other (the purpose is part of the
 * HMAC), so a mail saying "delete your account" is the only way to a deletion, and a deletion code cannot
 * open a session (decision 0029).
 */
export type CodePurpose = 'signin' | 'account-deletion';

const hashCode = (pepper: string, email: string, code: string, purpose: CodePurpose = 'signin') =>
  createHmac('sha256', pepper)
    .update(purpose === 'signin' ? `${email}\n${code}` : `${purpose}\n${email}\n${code}`)
    .digest();

const newCode = () =>
  randomInt(0, 10 ** OTP_LENGTH)
    .toString()
    .padStart(OTP_LENGTH, '0');

/** An agent is a member with a user row of its own, but it never signs in. */
function refuseAgentAddress(email: string): void {
  if (isAgentEmail(email)) throw badRequest('This address belongs to an AI agent and cannot sign in');
}

async function countRequests(ctx: OtpContext, where: SQL | undefined): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(signinRequests).where(where);
  return row?.n ?? 0;
}

/**
 * Issues a new code for `email` and mails it. Earlier codes stay valid until they expire or one is used.
 * The per-(address, IP) limit is what a stranger meets first; the per-address ceiling is high so that only
 * a stranger with many IPs reaches it, and even then the codes already mailed to the owner still work.
 */
export async function requestSigninCode(
  ctx: OtpContext,
  email: string,
  ip: string,
  purpose: CodePurpose = 'signin',
  /** The code confirms the address before a provider account is linked to it (the mail says so). */
  linking?: { provider: string },
): Promise<void> {
  refuseAgentAddress(email);
  if (purpose === 'signin') await requireSignupAllowed(ctx.db, ctx.config, email);
  const now = Date.now();
  const windowStart = new Date(now - RATE_WINDOW_MS);
  await ctx.db.delete(signinRequests).where(lt(signinRequests.createdAt, windowStart));
  await ctx.db.delete(signinFailures).where(lt(signinFailures.createdAt, windowStart));
  await ctx.db.delete(signinCodes).where(lt(signinCodes.expiresAt, new Date(now)));

  const recent = gt(signinRequests.createdAt, windowStart);
  const byAddress = await countRequests(ctx, and(eq(signinRequests.email, email), recent));
  if (byAddress >= ctx.config.OTP_PER_EMAIL_PER_HOUR) {
    throw tooManyRequests('Too many codes requested for this address. Try again in an hour.', 3600);
  }
  const byAddressAndIp = await countRequests(
    ctx,
    and(eq(signinRequests.email, email), eq(signinRequests.ip, ip), recent),
  );
  if (byAddressAndIp >= ctx.config.OTP_PER_EMAIL_IP_PER_HOUR) {
    throw tooManyRequests(
      'Too many codes requested for this address. Use one of the codes already sent, or try again in an hour.',
      3600,
    );
  }
  const byIp = await countRequests(ctx, and(eq(signinRequests.ip, ip), recent));
  if (byIp >= ctx.config.OTP_PER_IP_PER_HOUR) {
    throw tooManyRequests('Too many codes requested from this network. Try again later.', 3600);
  }

  const code = newCode();
  const codeHash = hashCode(ctx.secrets.otpPepper, email, code, purpose).toString('hex');
  await ctx.db.transaction(async (tx) => {
    await tx.insert(signinRequests).values({ id: randomUUID(), email, ip, createdAt: new Date(now) });
    await tx.insert(signinCodes).values({
      id: randomUUID(),
      email,
      codeHash,
      expiresAt: new Date(now + OTP_TTL_MS),
      createdAt: new Date(now),
    });
  });

  try {
    const mail = purpose === 'signin' ? signinCodeMail(code, linking) : accountDeletionCodeMail(code);
    await ctx.mail.send({ to: email, ...mail });
  } catch (err) {
    ctx.log.error({ err, to: email }, 'sign-in mail failed');
    throw new HttpError(503, 'The sign-in e-mail could not be sent. Try again later.');
  }
  // With no SMTP server the person running Lantern reads the code from the log (or DATA_DIR/mail).
  if (ctx.mailToFiles)
    ctx.log.info(`${purpose === 'signin' ? 'Sign-in' : 'Account deletion'} code for ${email}: ${code}`);
}

/**
 * Seconds this attempt must still wait, given the failures of one scope other than this attempt's own row:
 * none for the first FREE ones, then 2^k seconds after the latest.
 */
async function waitFor(ctx: OtpContext, scope: SQL | undefined, free: number, now: number): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count(), latest: max(signinFailures.createdAt) })
    .from(signinFailures)
    .where(scope);
  const failures = row?.n ?? 0;
  if (failures < free || !row?.latest) return 0;
  const delayS = Math.min(MAX_DELAY_S, 2 ** (failures - free));
  const waited = (now - new Date(row.latest).getTime()) / 1000;
  return Math.max(0, Math.ceil(delayS - waited));
}

/**
 * Checks a code against every live code of the address. The attempt is recorded as a failure before it is
 * checked, so parallel guesses see each other and cannot slip past the delay together; a refused attempt
 * removes its row (waiting is not a further failure) and a right code removes it too.
 */
export async function verifySigninCode(
  ctx: OtpContext,
  email: string,
  code: string,
  ip: string,
  purpose: CodePurpose = 'signin',
) {
  refuseAgentAddress(email);
  const now = Date.now();
  const attemptId = randomUUID();
  await ctx.db.insert(signinFailures).values({ id: attemptId, email, ip, createdAt: new Date(now) });
  const others = and(
    ne(signinFailures.id, attemptId),
    gt(signinFailures.createdAt, new Date(now - RATE_WINDOW_MS)),
  );
  const waits = await Promise.all([
    waitFor(
      ctx,
      and(others, eq(signinFailures.email, email), eq(signinFailures.ip, ip)),
      FREE_FAILURES.addressAndIp,
      now,
    ),
    waitFor(ctx, and(others, eq(signinFailures.email, email)), FREE_FAILURES.address, now),
    waitFor(ctx, and(others, eq(signinFailures.ip, ip)), FREE_FAILURES.ip, now),
  ]);
  const wait = Math.max(...waits);
  if (wait > 0) {
    await ctx.db.delete(signinFailures).where(eq(signinFailures.id, attemptId));
    throw tooManyRequests(
      `Too many wrong codes. Wait ${wait} ${wait === 1 ? 'second' : 'seconds'} before trying again.`,
      wait,
    );
  }

  const live = await ctx.db
    .select()
    .from(signinCodes)
    .where(and(eq(signinCodes.email, email), gt(signinCodes.expiresAt, new Date(now))));
  const given = hashCode(ctx.secrets.otpPepper, email, code, purpose);
  // Every live code is compared, in full, so the time taken says nothing about which one came close.
  let match: (typeof live)[number] | undefined;
  for (const row of live) {
    const expected = Buffer.from(row.codeHash, 'hex');
    if (expected.length === given.length && timingSafeEqual(expected, given)) match = row;
  }
  if (!match) {
    if (live.length > 0) throw badRequest('Wrong code. Check the latest e-mail and try again.');
    const [expired] = await ctx.db
      .select({ id: signinCodes.id })
      .from(signinCodes)
      .where(eq(signinCodes.email, email))
      .limit(1);
    if (expired) throw badRequest('This code has expired. Request a new code.');
    throw badRequest('No sign-in code is waiting for this address. Request a new code.');
  }
  // Using one code uses them all: the person is signed in, and the others must not linger for a thief.
  const consumed = await ctx.db
    .delete(signinCodes)
    .where(eq(signinCodes.id, match.id))
    .returning({ id: signinCodes.id });
  // A parallel request with the same right code got there first: only one session per code.
  if (consumed.length === 0) throw badRequest('This code was already used. Request a new code.');
  await ctx.db.delete(signinCodes).where(eq(signinCodes.email, email));
  await ctx.db.delete(signinFailures).where(and(eq(signinFailures.email, email), eq(signinFailures.ip, ip)));
}
