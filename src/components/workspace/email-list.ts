// E-mail addresses typed as a list (invitations, group members): how each is kept and checked before
// sending. The server checks them again; this names the one to fix while the person is still typing.

/** How an address is kept: what people paste often has capitals and spaces around it. */
export const normalizeEmail = (text: string): string => text.trim().toLowerCase();

/** A sentence when `value` cannot be an e-mail address, else null. */
export function emailProblem(value: string): string | null {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? null : `${value} is not an e-mail address`;
}

/** Addresses sent in one request: the invitation and group calls take up to 100. */
export const EMAILS_AT_ONCE = 100;
