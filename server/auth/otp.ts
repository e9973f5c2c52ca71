// Sign-in codes: six random digits mailed to an address, valid 10 minutes, void after 5 wrong attempts,
// and rate-limited per address and per client IP. Only an HMAC of the code (keyed by a secret pepper) is
// stored, so the database alone cannot be used to sign in.
import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import { OTP_LENGTH } from '../../schemas/protocol.ts';
import { isAgentEmail } from '../agents/agents.ts';
import type { AppContext } from '../context.ts';
import { signinCodes, signinRequests } from '../db/schema.ts';
import { badRequest, HttpError, tooManyRequests } from '../errors.ts';
import { signinCodeMail } from '../mail/templates.ts';
import { requireSignupAllowed } from './signup-policy.ts';

/** How long a code is valid: long enough to switch to a mail app on a slow phone, short enough to expire. */
export const OTP_TTL_MS = 10 * 60_000;
/** Wrong guesses allowed per code: 5 in 10^6 makes guessing hopeless, and a typo or two is forgiven. */
export const OTP_MAX_ATTEMPTS = 5;
const RATE_WINDOW_MS = 60 * 60_000;

type OtpContext = Pick<AppContext, 'db' | 'config' | 'mail' | 'log' | 'secrets'> & { mailToFiles: boolean };

const hashCode = (pepper: string, email: string, code: string) =>
  createHmac('sha256', pepper).update(`${email}\n${code}`).digest();

const newCode = () =>
  randomInt(0, 10 ** OTP_LENGTH)
    .toString()
    .padStart(OTP_LENGTH, '0');

/** An agent is a member with a user row of its own, but it never signs in. */
function refuseAgentAddress(email: string): void {
  if (isAgentEmail(email)) throw badRequest('This address belongs to an AI agent and cannot sign in');
}

/** Issues a fresh code for `email` (replacing any earlier one) and mails it. */
export async function requestSigninCode(ctx: OtpContext, email: string, ip: string): Promise<void> {
  refuseAgentAddress(email);
  await requireSignupAllowed(ctx.db, ctx.config, email);
  const now = Date.now();
  const windowStart = new Date(now - RATE_WINDOW_MS);
  await ctx.db.delete(signinRequests).where(lt(signinRequests.createdAt, windowStart));

  const [byEmail] = await ctx.db
    .select({ n: count() })
    .from(signinRequests)
    .where(and(eq(signinRequests.email, email), gt(signinRequests.createdAt, windowStart)));
  if ((byEmail?.n ?? 0) >= ctx.config.OTP_PER_EMAIL_PER_HOUR) {
    throw tooManyRequests('Too many codes requested for this address. Try again in an hour.');
  }
  const [byIp] = await ctx.db
    .select({ n: count() })
    .from(signinRequests)
    .where(and(eq(signinRequests.ip, ip), gt(signinRequests.createdAt, windowStart)));
  if ((byIp?.n ?? 0) >= ctx.config.OTP_PER_IP_PER_HOUR) {
    throw tooManyRequests('Too many codes requested from this network. Try again later.');
  }

  const code = newCode();
  const codeHash = hashCode(ctx.secrets.otpPepper, email, code).toString('hex');
  const expiresAt = new Date(now + OTP_TTL_MS);
  await ctx.db.transaction(async (tx) => {
    await tx.insert(signinRequests).values({ id: randomUUID(), email, ip, createdAt: new Date(now) });
    await tx
      .insert(signinCodes)
      .values({ email, codeHash, expiresAt, attempts: 0, createdAt: new Date(now) })
      .onConflictDoUpdate({
        target: signinCodes.email,
        set: { codeHash, expiresAt, attempts: 0, createdAt: new Date(now) },
      });
  });

  try {
    await ctx.mail.send({ to: email, ...signinCodeMail(code) });
  } catch (err) {
    ctx.log.error({ err, to: email }, 'sign-in mail failed');
    throw new HttpError(503, 'The sign-in e-mail could not be sent. Try again later.');
  }
  // With no SMTP server the person running Lantern reads the code from the log (or DATA_DIR/mail).
  if (ctx.mailToFiles) ctx.log.info(`Sign-in code for ${email}: ${code}`);
}

/**
 * Checks a code. Every attempt is counted first, atomically, so parallel guesses cannot exceed the limit;
 * the right code consumes the row so it cannot be used twice.
 */
export async function verifySigninCode(ctx: OtpContext, email: string, code: string): Promise<void> {
  refuseAgentAddress(email);
  const now = new Date();
  const [row] = await ctx.db
    .update(signinCodes)
    .set({ attempts: sql`${signinCodes.attempts} + 1` })
    .where(
      and(
        eq(signinCodes.email, email),
        lt(signinCodes.attempts, OTP_MAX_ATTEMPTS),
        gt(signinCodes.expiresAt, now),
      ),
    )
    .returning();
  if (!row) {
    const [existing] = await ctx.db.select().from(signinCodes).where(eq(signinCodes.email, email)).limit(1);
    if (!existing) throw badRequest('No sign-in code was requested for this address. Request a new code.');
    if (existing.expiresAt <= now) throw badRequest('This code has expired. Request a new code.');
    throw badRequest('Too many attempts, request a new code');
  }
  const expected = Buffer.from(row.codeHash, 'hex');
  const given = hashCode(ctx.secrets.otpPepper, email, code);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    const left = OTP_MAX_ATTEMPTS - row.attempts;
    throw badRequest(
      left > 0
        ? `Wrong code. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`
        : 'Too many attempts, request a new code',
    );
  }
  const consumed = await ctx.db
    .delete(signinCodes)
    .where(and(eq(signinCodes.email, email), eq(signinCodes.codeHash, row.codeHash)))
    .returning({ email: signinCodes.email });
  // A parallel request with the same right code got there first: only one session per code.
  if (consumed.length === 0) throw badRequest('This code was already used. Request a new code.');
}
