// Account routes: what deleting one's account would do, deleting it signed in or by an e-mail code, the
// "Deleted user" ids a workspace's clients show, and handing a workspace over (its primary owner, first).

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  type AccountDeletedResponse,
  type AccountDeletionPreview,
  accountDeletionCodeBody,
  deleteAccountBody,
  deleteAccountByCodeBody,
  handOverBody,
} from '../../schemas/protocol/index.ts';
import { requireMember } from '../access.ts';
import { requestSigninCode, verifySigninCode } from '../auth/otp.ts';
import type { AppContext } from '../context.ts';
import { users } from '../db/schema.ts';
import { badRequest } from '../errors.ts';
import { accountDeletionPreview, deleteAccount, deletedMemberIds } from '../services/account-deletion.ts';
import { handOverWorkspace } from '../services/primary-owner.ts';
import { getAuth } from './auth-hook.ts';

const workspaceParams = (params: unknown) => {
  const id = (params as { id?: unknown }).id;
  if (typeof id !== 'string' || id.length > 64) throw badRequest('Not a workspace id');
  return id;
};

export function registerAccountRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  opts: { mailToFiles: boolean },
): void {
  const otpCtx = { ...ctx, mailToFiles: opts.mailToFiles };

  app.get(
    '/api/users/account-deletion',
    async (request): Promise<AccountDeletionPreview> => accountDeletionPreview(ctx, getAuth(request).userId),
  );

  app.delete('/api/users', async (request): Promise<AccountDeletedResponse> => {
    const { messages } = deleteAccountBody.parse(request.body ?? {});
    return deleteAccount(ctx, getAuth(request).userId, messages);
  });

  // Signed out: a code mailed for deletion only (decision 0029), under the sign-in codes' limits. The answer
  // is the same whether or not the address has an account, so it cannot be used to find out.
  app.post('/api/auth/account-deletion/code', async (request) => {
    const { email } = accountDeletionCodeBody.parse(request.body);
    const [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (user) await requestSigninCode(otpCtx, email, request.ip, 'account-deletion');
    return { ok: true };
  });

  app.post('/api/auth/account-deletion', async (request): Promise<AccountDeletedResponse> => {
    const { email, code, messages } = deleteAccountByCodeBody.parse(request.body);
    await verifySigninCode(otpCtx, email, code, request.ip, 'account-deletion');
    const [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (!user) throw badRequest('This address has no account');
    return deleteAccount(ctx, user.id, messages);
  });

  app.get('/api/institutions/:id/deleted-members', async (request) => {
    const institutionId = workspaceParams(request.params);
    await requireMember(ctx.db, institutionId, getAuth(request).userId);
    return { data: await deletedMemberIds(ctx.db, institutionId) };
  });

  app.put('/api/institutions/:id/primary-owner', async (request) => {
    const institutionId = workspaceParams(request.params);
    const { memberId } = handOverBody.parse(request.body);
    return handOverWorkspace(ctx, getAuth(request).userId, institutionId, memberId);
  });
}
