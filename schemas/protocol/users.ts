// A person, signing in, and editing their own profile.
import { z } from 'zod';
import { NAME_MAX, OTP_LENGTH } from './limits.ts';
import { email, id } from './primitives.ts';

export const user = z.object({
  id,
  email: z.string(),
  name: z.string(),
  profileImage: z.string().nullable(),
  isOnline: z.boolean().optional(),
});
export type User = z.infer<typeof user>;

// ───────────────────────────── REST: auth and users ─────────────────────────────
export const signinOtpQuery = z.object({ email });
export const signinBody = z.object({
  email,
  code: z
    .string()
    .max(OTP_LENGTH, { abort: true, message: 'The code is 6 digits' })
    .regex(/^\d{6}$/, 'The code is 6 digits'),
});
export const signinResponse = z.object({ accessToken: z.string(), user });
export type SigninResponse = z.infer<typeof signinResponse>;

export const updateUserBody = z
  .object({
    name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX).optional(),
    profileImage: z.string().max(2048).nullable().optional(),
  })
  .refine((b) => b.name !== undefined || b.profileImage !== undefined, 'Nothing to update');
