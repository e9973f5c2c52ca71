// A `{folder}` in an allowlisted command line: the admin names a folder, which must be an existing folder
// inside the operator's root (MCP_FILESYSTEM_ROOT, default DATA_DIR/mcp-folders), judged after resolving
// `..` and symbolic links, so a file server can be pointed at a share but never at the host's own files.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

export const folderRoot = (config: Pick<Config, 'dataDir' | 'MCP_FILESYSTEM_ROOT'>): string =>
  path.resolve(config.dataDir, config.MCP_FILESYSTEM_ROOT ?? 'mcp-folders');

const inside = (root: string, candidate: string) => {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

const realOrNull = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
};

/** The folder as an absolute path to hand the server, or why it cannot be used (in words for the admin). */
export function resolveFolder(root: string, value: string): { folder: string } | { refusal: string } {
  const outside = {
    refusal: 'The folder must be inside the folder this server shares (MCP_FILESYSTEM_ROOT)',
  };
  if (!value.trim() || value.includes('\0')) return { refusal: 'Enter a folder' };
  const folder = path.resolve(root, value);
  if (!inside(root, folder)) return outside;
  const realRoot = realOrNull(root);
  const real = realOrNull(folder);
  if (!realRoot || !real || !statSync(real).isDirectory())
    return { refusal: 'There is no such folder in the folder this server shares' };
  if (!inside(realRoot, real)) return outside;
  return { folder: real };
}
