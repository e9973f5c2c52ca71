// Small real files for upload tests: a PNG made pixel by pixel and a one-page PDF with text, both
// built in memory so the specs need no fixtures on disk.
import { deflateSync } from 'node:zlib';
import { makePdf } from '../../tests/fixtures/pdf.ts';

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A width×height PNG with a warm diagonal gradient (something visible in a screenshot). */
export function samplePng(width = 320, height = 200): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) {
      const i = row + 1 + x * 3;
      raw[i] = 240 - Math.round((y / height) * 80);
      raw[i + 1] = 120 + Math.round((x / width) * 90);
      raw[i + 2] = 30 + Math.round(((x + y) / (width + height)) * 120);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF with a title line, for the first-page preview. */
export function samplePdf(title = 'Quarterly plan'): Buffer {
  return makePdf(title, 'Lantern e2e sample document');
}
