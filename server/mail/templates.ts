// The texts of the e-mails Lantern sends. Plain text first (it is what the .eml files and tests read).
export function signinCodeMail(code: string, linking?: { provider: string }) {
  return {
    // The code is in the subject so that it shows in a notification without opening the mail.
    subject: `Your Lantern sign-in code: ${code}`,
    text: linking
      ? // The operator names the provider; the reader learns what the code would do, and whom not to give it.
        `Your Lantern sign-in code is ${code}\n\nSomeone is linking a ${quoted(linking.provider)} account to the Lantern account of this address. Enter the code only if that is you: whoever has it can sign in to your account with that ${quoted(linking.provider)} account from now on.\n\nIt is valid for 10 minutes. If you did not ask for it, ignore this e-mail and never give the code to anyone.\n`
      : `Your Lantern sign-in code is ${code}\n\nIt is valid for 10 minutes. If you did not ask for it, ignore this e-mail.\n`,
  };
}

export function accountDeletionCodeMail(code: string) {
  return {
    subject: `Your Lantern account deletion code: ${code}`,
    text: `Someone asked to delete the Lantern account of this address. The code to confirm it is ${code}\n\nIt is valid for 10 minutes. If you did not ask for it, ignore this e-mail: your account stays as it is.\n`,
  };
}

/** Sent when an account is gone, so its owner learns of it even if someone else did it from a signed-in device. */
export function accountDeletedMail(opts: { messagesRemoved: boolean }) {
  return {
    subject: 'Your Lantern account was deleted',
    text: `Your Lantern account was deleted. Every device was signed out and your profile removed. ${
      opts.messagesRemoved
        ? 'Your messages were removed from their channels.'
        : 'Your messages stay in their channels under "Deleted user".'
    }\n\nSigning in again with this address creates a new, empty account.\n`,
  };
}

/**
 * A name someone chose, made safe to quote in a plain-text body: one line (no forged paragraphs or
 * headers-looking lines) and bounded in length.
 */
const quoted = (name: string) => `"${name.replace(/\s+/g, ' ').trim().slice(0, 80)}"`;

/**
 * The subject is fixed text: workspace and inviter names are chosen by whoever signed up, and a subject
 * ("Your account is locked — verify at …") is where a phishing line would do most harm. The names stay
 * in the body, quoted, where the join link beside them is ours.
 */
export function invitationMail(opts: { workspace: string; inviter: string; joinUrl: string }) {
  return {
    subject: 'You are invited to a workspace on Lantern',
    text: `${quoted(opts.inviter)} invited you to join the workspace ${quoted(opts.workspace)} on Lantern.\n\nSign in with this e-mail address to accept: ${opts.joinUrl}\n`,
  };
}
