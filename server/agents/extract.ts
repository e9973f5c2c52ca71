// Text out of an uploaded document: PDF through unpdf, Word (.docx) through mammoth, HTML with its tags
// dropped, Markdown and plain text as they are. Anything else is refused with a reason the admin can read.
import mammoth from 'mammoth';
import sanitizeHtml from 'sanitize-html';
import { extractText } from 'unpdf';

export class UnsupportedDocument extends Error {}

type Kind = 'pdf' | 'docx' | 'html' | 'text';

function kindOf(fileName: string, fileType: string): Kind | null {
  const name = fileName.toLowerCase();
  const type = fileType.toLowerCase();
  if (type === 'application/pdf' || name.endsWith('.pdf')) return 'pdf';
  if (type.includes('wordprocessingml') || name.endsWith('.docx')) return 'docx';
  if (type === 'text/html' || /\.html?$/.test(name)) return 'html';
  if (type.startsWith('text/') || /\.(md|markdown|txt|csv|json)$/.test(name)) return 'text';
  return null;
}

export const htmlToText = (html: string): string =>
  sanitizeHtml(html.replace(/<\/(p|div|h[1-6]|li|tr|br)>/gi, '$&\n'), {
    allowedTags: [],
    allowedAttributes: {},
    nonTextTags: ['script', 'style', 'head', 'title', 'noscript'],
  })
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

export async function extractDocumentText(
  bytes: Buffer,
  fileName: string,
  fileType: string,
): Promise<string> {
  const kind = kindOf(fileName, fileType);
  if (!kind)
    throw new UnsupportedDocument('Only PDF, Word (.docx), HTML, Markdown and plain text files can be read');
  if (kind === 'pdf') {
    const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
    return text;
  }
  if (kind === 'docx') return (await mammoth.extractRawText({ buffer: bytes })).value;
  const text = bytes.toString('utf8');
  return kind === 'html' ? htmlToText(text) : text;
}
