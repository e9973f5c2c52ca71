// The rule for what a message may contain once sanitised: something to read or something attached.
import type { Attachment } from '../../schemas/protocol/index.ts';
import { badRequest } from '../errors.ts';
import { isBlankHtml, sanitizeMessageHtml } from '../sanitize.ts';

/** Sanitised content; 400 'Message cannot be empty' when nothing would be shown. */
export function messageContent(html: string, attachments: readonly Attachment[]): string {
  const content = sanitizeMessageHtml(html);
  if (isBlankHtml(content) && attachments.length === 0) throw badRequest('Message cannot be empty');
  return content;
}
