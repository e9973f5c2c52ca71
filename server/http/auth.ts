// Sign-in routes (no session needed): ask for a code by e-mail, trade the code for an access token.
import type { FastifyInstance } from 'fastify';
import { type SigninResponse, signinBody, signinOtpQuery } from '../../schemas/protocol/index.ts';
import { requestSigninCode, verifySigninCode } from '../auth/otp.ts';
import { requireSignupAllowed } from '../auth/signup-policy.ts';
import type { AppContext } from '../context.ts';
import { createSession, findOrCreateUser, toUser } from '../services/users.ts';
import { signinDevice } from './signin-device.ts';

export function registerAuthRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  opts: { mailToFiles: boolean },
): void {
  const otpCtx = { ...ctx, mailToFiles: opts.mailToFiles };

  app.get('/api/auth/signin_otp', async (request) => {
    const { email } = signinOtpQuery.parse(request.query);
    await requestSigninCode(otpCtx, email, request.ip);
    return { ok: true };
  });

  app.post('/api/auth/signin', async (request): Promise<SigninResponse> => {
    const { email, code } = signinBody.parse(request.body);
    await verifySigninCode(otpCtx, email, code, request.ip);
    // Again here: SIGNUP may have changed, or an invitation been revoked, since the code was mailed.
    await requireSignupAllowed(ctx.db, ctx.config, email);
    const user = await findOrCreateUser(ctx.db, email);
    const { token } = await createSession(ctx.db, user.id, signinDevice(request));
    return { accessToken: token, user: toUser(user) };
  });
}
