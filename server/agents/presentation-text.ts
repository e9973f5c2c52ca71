// The text of a PowerPoint presentation (.pptx): each slide's paragraphs in slide order, a blank line
// between slides. Read from the archive's slide parts only, after document-archive.ts has checked it.
import { readEntries } from './document-archive.ts';

const SLIDE = /^ppt\/slides\/slide(\d+)\.xml$/;
const PARAGRAPH = /<a:p[\s>][\s\S]*?<\/a:p>/g;
const RUN_TEXT = /<a:t(?:\s[^>]*)?>([^<]*)<\/a:t>/g;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** One slide's paragraphs, one per line. */
export function slideText(xml: string): string {
  const lines: string[] = [];
  for (const [paragraph] of xml.matchAll(PARAGRAPH)) {
    const line = [...paragraph.matchAll(RUN_TEXT)].map((m) => decodeXml(m[1] ?? '')).join('');
    if (line.trim()) lines.push(line.trim());
  }
  return lines.join('\n');
}

export function presentationText(bytes: Buffer): string {
  const slides = readEntries(bytes, (name) => SLIDE.test(name), 'presentation');
  const number = (name: string) => Number(SLIDE.exec(name)?.[1] ?? 0);
  return [...slides.entries()]
    .sort(([a], [b]) => number(a) - number(b))
    .map(([, xml]) => slideText(xml.toString('utf8')))
    .filter(Boolean)
    .join('\n\n');
}
