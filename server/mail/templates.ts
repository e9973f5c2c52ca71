// The texts of the e-mails Lantern sends. Plain text first (it is what the .eml files and tests read).
export function signinCodeMail(code: string) {
  return {
    // The code is in the subject so that it shows in a notification without opening the mail.
    subject: `Your Lantern sign-in code: ${code}`,
    text: `Your Lantern sign-in code is ${code}\n\nIt is valid for 10 minutes. If you did not ask for it, ignore this e-mail.\n`,
  };
}

export function invitationMail(opts: { workspace: string; inviter: string; joinUrl: string }) {
  return {
    subject: `${opts.inviter} invited you to ${opts.workspace} on Lantern`,
    text: `${opts.inviter} invited you to join the workspace "${opts.workspace}" on Lantern.\n\nSign in with this e-mail address to accept: ${opts.joinUrl}\n`,
  };
}
