// Outgoing mail. Without SMTP_URL every message is written to DATA_DIR/mail as one .eml file (so sign-in
// works with nothing installed, and tests read codes from there); with SMTP_URL nodemailer sends over SMTP.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Mailer } from '../context.ts';

export interface ClosableMailer extends Mailer {
  /** True when mail goes to files: callers may then log what a person needs (the sign-in code). */
  readonly toFiles: boolean;
  close(): void;
}

/**
 * nodemailer loads with the first mail, not at every start (decision 0075); the transport is made once. A
 * failed load is tried again at the next mail.
 */
function lazyTransport(options: string | Record<string, unknown>) {
  let transport: Promise<Transporter> | null = null;
  return {
    get: () => {
      transport ??= import('nodemailer').then(
        (m) => m.default.createTransport(options),
        (error: unknown) => {
          transport = null;
          throw error;
        },
      );
      return transport;
    },
    close: () => void transport?.then((t) => t.close()).catch(() => undefined),
  };
}

export function createMailer(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'mailDir'>,
  log: Logger,
): ClosableMailer {
  if (config.SMTP_URL) {
    const transport = lazyTransport(config.SMTP_URL);
    return {
      toFiles: false,
      async send(mail) {
        await (await transport.get()).sendMail({ from: config.MAIL_FROM, ...mail });
        log.debug({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
      close: transport.close,
    };
  }

  mkdirSync(config.mailDir, { recursive: true });
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    toFiles: true,
    async send(mail) {
      const info = await (await transport.get()).sendMail({ from: config.MAIL_FROM, ...mail });
      // Time first so a directory listing sorts by sending order; the address makes files easy to find.
      const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const name = `${Date.now()}-${safeTo}-${randomBytes(3).toString('hex')}.eml`;
      const file = path.join(config.mailDir, name);
      await writeFile(file, info.message as Buffer);
      log.debug({ to: mail.to, file }, 'mail written');
    },
    close: transport.close,
  };
}
