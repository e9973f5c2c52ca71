// Our files' static runtime imports, followed from an entry: what a bundle or a process start must load
// before anything else runs. Used by the tests that keep on-demand packages off a first path (the channel
// route's, tests/unit/first-path.test.ts; the server's start, tests/unit/server-start-path.test.ts).
import path from 'node:path';
import { parseSync } from 'vite';

/** The imports a file needs at run time: value imports and re-exports (type-only ones are erased). */
export function runtimeImports(file: string, source: string): string[] {
  const parsed = parseSync(file, source);
  if (parsed.errors.length > 0) throw new Error(`${file} does not parse: ${parsed.errors[0]?.message}`);
  return [
    ...parsed.module.staticImports
      .filter((i) => i.entries.length === 0 || i.entries.some((e) => !e.isType))
      .map((i) => i.moduleRequest.value),
    ...parsed.module.staticExports.flatMap((e) =>
      e.entries.filter((x) => !x.isType).flatMap((x) => x.moduleRequest?.value ?? []),
    ),
  ];
}

/** The package a bare specifier names (`@scope/name` or `name`). */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? specifier);
}

export interface StaticPath {
  /** Our files reached. */
  files: Set<string>;
  /** Each package imported, with the first file found importing it. */
  packages: Map<string, string>;
  /** Each bare specifier imported (a package's subpath too), with the first file found importing it. */
  specifiers: Map<string, string>;
}

/**
 * Walks static runtime imports from `entries` through the files `read` returns (null: no such file).
 * Only script files are followed (styles and fonts are not scripts); a file `reachedOnly` names is counted
 * as reached but its imports are not followed.
 */
export function staticPath(
  entries: readonly string[],
  read: (file: string) => string | null,
  reachedOnly: (file: string) => boolean = () => false,
): StaticPath {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const specifiers = new Map<string, string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    const source = read(file);
    if (source === null) continue;
    files.add(file);
    for (const specifier of runtimeImports(file, source)) {
      if (specifier.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
        if (!/\.(ts|tsx)$/.test(target)) continue;
        if (reachedOnly(target)) files.add(target);
        else queue.push(target);
      } else if (!specifier.startsWith('node:')) {
        const name = packageOf(specifier);
        if (!packages.has(name)) packages.set(name, file);
        if (!specifiers.has(specifier)) specifiers.set(specifier, file);
      }
    }
  }
  return { files, packages, specifiers };
}
