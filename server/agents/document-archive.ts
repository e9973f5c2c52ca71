// A Word document (or a presentation) is a zip archive: before anything unpacks it, its central directory is read and the
// archive refused when it declares more than the limit unpacked, packs an entry absurdly tightly (a zip
// bomb), or unpacks to more than it declares. Each entry is inflated with a ceiling of its own declared
// size, so a lying directory cannot make the reader allocate more than the limit.
import { inflateRawSync } from 'node:zlib';
import { UnsupportedDocument } from './unsupported-document.ts';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** A zip's end record is 22 bytes plus a comment of at most 65 535. */
const END_SEARCH = 22 + 0xffff;
/** Sizes and counts at their maximum mean "see the ZIP64 record": no Word document needs that. */
const ZIP64_MARK = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;
/**
 * Word's XML packs about 5–20 to 1 (a page of one repeated table row reaches a few hundred); deflate cannot
 * exceed about 1030 to 1. An entry over 1 MiB packed more than 500 to 1 is a bomb, not a document.
 */
const ABSURD_RATIO = 500;
const RATIO_MIN_BYTES = 1024 * 1024;

/** What the archive is called in a refusal: "Word document", "presentation". */
export type ArchiveLabel = string;

const damaged = (label: ArchiveLabel) =>
  new UnsupportedDocument(`The ${label} is damaged (its zip directory is unreadable)`);

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

function directoryEntries(bytes: Buffer, label: ArchiveLabel): Entry[] {
  const from = Math.max(0, bytes.length - END_SEARCH);
  let end = -1;
  for (let i = bytes.length - 22; i >= from; i--)
    if (bytes.readUInt32LE(i) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  if (end < 0) throw damaged(label);
  const count = bytes.readUInt16LE(end + 10);
  const offset = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || offset === ZIP64_MARK)
    throw new UnsupportedDocument(`The ${label} is too large to read`);
  const entries: Entry[] = [];
  let at = offset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) throw damaged(label);
    const entry = {
      name: bytes.toString('utf8', at + 46, at + 46 + bytes.readUInt16LE(at + 28)),
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      localOffset: bytes.readUInt32LE(at + 42),
    };
    if (entry.compressedSize === ZIP64_MARK || entry.size === ZIP64_MARK)
      throw new UnsupportedDocument(`The ${label} is too large to read`);
    entries.push(entry);
    at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return entries;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024)).toLocaleString('en-US')} MB`;

/** Throws UnsupportedDocument with the reason when the archive may not be unpacked. */
export function checkArchive(
  bytes: Buffer,
  maxUnpackedBytes: number,
  label: ArchiveLabel = 'Word document',
): void {
  const entries = directoryEntries(bytes, label);
  const declared = entries.reduce((sum, e) => sum + e.size, 0);
  const tooLarge = new UnsupportedDocument(
    `The ${label} unpacks to more than ${megabytes(maxUnpackedBytes)}, the most this server reads`,
  );
  if (declared > maxUnpackedBytes) throw tooLarge;
  for (const entry of entries)
    if (entry.size > RATIO_MIN_BYTES && entry.size / Math.max(1, entry.compressedSize) > ABSURD_RATIO)
      throw new UnsupportedDocument(`The ${label} is compressed too tightly to be real (a zip bomb?)`);
  for (const entry of entries) unpackEntry(bytes, entry, label);
}

/**
 * The unpacked entries whose names `wanted` accepts, from an archive that passed checkArchive (each
 * inflated no further than its declared size).
 */
export function readEntries(
  bytes: Buffer,
  wanted: (name: string) => boolean,
  label: ArchiveLabel,
): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (const entry of directoryEntries(bytes, label)) {
    if (!wanted(entry.name)) continue;
    found.set(entry.name, unpackEntry(bytes, entry, label));
  }
  return found;
}

/** Unpacks one entry no further than its declared size: more than declared is a lie, and refused. */
function unpackEntry(bytes: Buffer, entry: Entry, label: ArchiveLabel): Buffer {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL_HEADER) throw damaged(label);
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw damaged(label);
  if (entry.method === STORED) {
    if (entry.compressedSize !== entry.size) throw damaged(label);
    return data;
  }
  if (entry.method !== DEFLATED)
    throw new UnsupportedDocument(`The ${label} uses a compression Office does not write`);
  let unpacked: Buffer;
  try {
    // One byte over the declared size is enough to know the declaration is false.
    unpacked = inflateRawSync(data, { maxOutputLength: entry.size + 1 });
  } catch (err) {
    if (err instanceof RangeError)
      throw new UnsupportedDocument(`The ${label} unpacks to more than its zip directory declares`);
    throw damaged(label);
  }
  if (unpacked.length > entry.size)
    throw new UnsupportedDocument(`The ${label} unpacks to more than its zip directory declares`);
  return unpacked;
}
