// Text out of a document (an uploaded file or a fetched page): PDF through unpdf, Word (.docx) through
// mammoth, PowerPoint (.pptx) from its slides' XML, HTML with its tags dropped, Markdown and plain text as
// they are. Anything else is refused with a reason the admin can read. Whole documents are read in a worker thread (extraction.ts), never here.
import sanitizeHtml from 'sanitize-html';
import { presentationText } from './presentation-text.ts';

export type DocumentKind = 'pdf' | 'docx' | 'pptx' | 'html' | 'text';

export const SUPPORTED_DOCUMENTS = 'PDF, Word (.docx), PowerPoint (.pptx), HTML, Markdown and plain text';

/** What a document is, from its media type (parameters ignored) or else its name; null: not readable. */
export function documentKind(fileName: string, fileType: string): DocumentKind | null {
  const name = fileName.toLowerCase();
  const type = (fileType.split(';')[0] ?? '').trim().toLowerCase();
  if (type === 'application/pdf' || name.endsWith('.pdf')) return 'pdf';
  if (type.includes('wordprocessingml') || name.endsWith('.docx')) return 'docx';
  if (type.includes('presentationml') || name.endsWith('.pptx')) return 'pptx';
  if (type === 'text/html' || type === 'application/xhtml+xml' || /\.html?$/.test(name)) return 'html';
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

/** The text of a page's <title>, entities decoded and whitespace collapsed; null when it has none. */
export function htmlTitle(html: string): string | null {
  const inner = titleElementText(html);
  const title = inner ? htmlToText(inner).replace(/\s+/g, ' ').trim() : '';
  return title || null;
}

/**
 * The raw text between the first <title …> and the next </title>, found in one pass. The former
 * `/<title[^>]*>([\s\S]*?)<\/title\s*>/i` searched to the end of the page from every "<title", which is
 * quadratic on a page of many unclosed titles.
 */
function titleElementText(html: string): string | null {
  const open = /<title(?=[\s>/])[^<>]*>/i.exec(html);
  if (!open) return null;
  const start = open.index + open[0].length;
  const close = /<\/title\s*>/i.exec(html.slice(start));
  return close ? html.slice(start, start + close.index) : null;
}

/**
 * Bytes as text in the given charset (a label TextDecoder knows, e.g. from a Content-Type header);
 * UTF-8 when none is given or the label is unknown.
 */
export function decodeText(bytes: Buffer, charset?: string | null): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** The PDF and Word readers load with the first such document (in the extraction worker), not with the server. */
export async function extractKindText(
  bytes: Buffer,
  kind: DocumentKind,
  charset?: string | null,
): Promise<string> {
  if (kind === 'pdf') {
    const { extractText } = await import('unpdf');
    const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
    return text;
  }
  if (kind === 'docx') {
    const { default: mammoth } = await import('mammoth');
    return (await mammoth.extractRawText({ buffer: bytes })).value;
  }
  if (kind === 'pptx') return presentationText(bytes);
  const text = decodeText(bytes, charset);
  return kind === 'html' ? htmlToText(text) : text;
}
