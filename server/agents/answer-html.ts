// A model's answer is Markdown; a message is the small HTML subset the composer writes (server/sanitize.ts).
// This turns the common part of Markdown (paragraphs, line breaks, lists, code, bold, italic, links) into
// that subset, escaping everything else, so model output can never inject markup.
import { escapeHtml } from './answer.ts';

function inline(text: string): string {
  // Code spans first, kept aside so that their content is not formatted.
  const codes: string[] = [];
  let html = escapeHtml(text).replace(/`([^`\n]+)`/g, (_, code: string) => {
    codes.push(`<code>${code}</code>`);
    return `\uE000${codes.length - 1}\uE000`;
  });
  html = html
    .replace(/\*\*([^*\n]+)\*\*/g, '<strong>$1</strong>')
    .replace(/__([^_\n]+)__/g, '<strong>$1</strong>')
    .replace(/(^|[^*\w])\*([^*\n]+)\*(?!\w)/g, '$1<em>$2</em>')
    .replace(/(^|[^_\w])_([^_\n]+)_(?!\w)/g, '$1<em>$2</em>')
    .replace(
      /\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g,
      '<a href="$2" rel="noopener noreferrer" target="_blank">$1</a>',
    );
  return html.replace(/\uE000(\d+)\uE000/g, (_, i: string) => codes[Number(i)] ?? '');
}

const BULLET = /^\s*[-*+]\s+/;
const NUMBERED = /^\s*\d+[.)]\s+/;

export function markdownToHtml(markdown: string): string {
  const out: string[] = [];
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length) out.push(`<p>${paragraph.map(inline).join('<br>')}</p>`);
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^\s*```/.test(line)) {
      endParagraph();
      const code: string[] = [];
      // An unclosed fence (the stream is still arriving) runs to the end.
      for (i++; i < lines.length && !/^\s*```/.test(lines[i] ?? ''); i++) code.push(lines[i] ?? '');
      out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    const list = BULLET.test(line) ? BULLET : NUMBERED.test(line) ? NUMBERED : null;
    if (list) {
      endParagraph();
      const items: string[] = [];
      for (; i < lines.length && list.test(lines[i] ?? ''); i++)
        items.push(`<li>${inline((lines[i] ?? '').replace(list, ''))}</li>`);
      i--;
      const tag = list === BULLET ? 'ul' : 'ol';
      out.push(`<${tag}>${items.join('')}</${tag}>`);
      continue;
    }
    if (/^\s*>\s?/.test(line)) {
      endParagraph();
      const quoted: string[] = [];
      for (; i < lines.length && /^\s*>\s?/.test(lines[i] ?? ''); i++)
        quoted.push((lines[i] ?? '').replace(/^\s*>\s?/, ''));
      i--;
      out.push(`<blockquote><p>${quoted.map(inline).join('<br>')}</p></blockquote>`);
      continue;
    }
    if (line.trim() === '') {
      endParagraph();
      continue;
    }
    // Headings become bold paragraphs: messages have no heading levels.
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      endParagraph();
      out.push(`<p><strong>${inline(heading[1] ?? '')}</strong></p>`);
      continue;
    }
    paragraph.push(line.trim());
  }
  endParagraph();
  return out.join('');
}
