// The layers may only depend downwards (docs/architecture.md): this test reads every import of our source
// files, static, re-export and dynamic, and fails naming each file:import that crosses a boundary.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type ESTree, parseSync, Visitor } from 'vite';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE_DIRS = ['src', 'worker', 'schemas', 'server'];
const SOURCE_FILE = /\.(ts|tsx|mts|js|mjs)$/;

/** One import rule: which files it limits and which of our paths they may import (npm packages always). */
interface Rule {
  name: string;
  appliesTo(file: string): boolean;
  allows(target: string): boolean;
}

const under = (folder: string) => (file: string) => file.startsWith(`${folder}/`);

/** The parts of server/ that talk to the network; every other server file is a service and is kept out. */
const TRANSPORT = ['server/http/', 'server/realtime/'];
const WIRING = new Set(['server/app.ts', 'server/main.ts', 'server/realtime-controls.ts']);
const isService = (file: string) =>
  under('server')(file) && !TRANSPORT.some((t) => file.startsWith(t)) && !WIRING.has(file);

const RULES: Rule[] = [
  {
    name: 'schemas/ imports nothing of ours',
    appliesTo: under('schemas'),
    allows: under('schemas'),
  },
  {
    name: 'worker/ imports only worker/, schemas/ and src/store/',
    appliesTo: under('worker'),
    allows: (target) => ['worker', 'schemas', 'src/store'].some((folder) => under(folder)(target)),
  },
  {
    // What the worker imports of the client must not lead back into the tab's code.
    name: 'src/store/ imports only src/store/ and schemas/',
    appliesTo: under('src/store'),
    allows: (target) => ['src/store', 'schemas'].some((folder) => under(folder)(target)),
  },
  {
    name: 'server/ never imports src/ or worker/',
    appliesTo: under('server'),
    allows: (target) => !under('src')(target) && !under('worker')(target),
  },
  {
    name: 'services import neither server/http/ nor server/realtime/',
    appliesTo: isService,
    allows: (target) => !TRANSPORT.some((t) => target.startsWith(t)),
  },
];

/**
 * The specifier a dynamic import() or require() names, when it is written out (a template's fixed prefix).
 * A computed one cannot be checked here and is skipped.
 */
function literalSpecifier(node: ESTree.Expression | ESTree.Argument | undefined): string | null {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral') return node.quasis[0]?.value.cooked ?? null;
  return null;
}

/** Every module specifier of a file: import, import type, export … from, import(), require(). */
function specifiersOf(file: string, source: string): string[] {
  const parsed = parseSync(file, source);
  if (parsed.errors.length > 0) throw new Error(`${file} does not parse: ${parsed.errors[0]?.message}`);
  const found = [
    ...parsed.module.staticImports.map((i) => i.moduleRequest.value),
    ...parsed.module.staticExports.flatMap((e) => e.entries.flatMap((x) => x.moduleRequest?.value ?? [])),
  ];
  new Visitor({
    ImportExpression(node) {
      found.push(literalSpecifier(node.source) ?? '');
    },
    CallExpression(node) {
      if (node.callee.type === 'Identifier' && node.callee.name === 'require')
        found.push(literalSpecifier(node.arguments[0]) ?? '');
    },
  }).visit(parsed.program);
  return found.filter((specifier) => specifier !== '');
}

/** A specifier as a path from the repository root, or null for an npm package or a node: builtin. */
function resolve(file: string, specifier: string): string | null {
  const bare = specifier.replace(/[?#].*$/, '');
  if (bare.startsWith('/')) return path.posix.normalize(bare.slice(1));
  if (!bare.startsWith('.')) return null;
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), bare));
}

/** Each import that breaks a rule, as "file: specifier (rule)". Files are keyed by path from the root. */
function boundaryViolations(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, source] of files) {
    const rules = RULES.filter((rule) => rule.appliesTo(file));
    if (rules.length === 0) continue;
    for (const specifier of specifiersOf(file, source)) {
      const target = resolve(file, specifier);
      if (target === null) continue;
      for (const rule of rules) {
        if (!rule.allows(target)) found.push(`${file}: ${specifier} (${rule.name})`);
      }
    }
  }
  return found;
}

/**
 * Import cycles among files under `folder`, each as "a → b → a". Type-only imports count too: a cycle of
 * types still means two modules that cannot be understood apart.
 */
function importCycles(files: ReadonlyMap<string, string>, folder: string): string[] {
  const edges = new Map<string, string[]>();
  for (const [file, source] of files) {
    if (!under(folder)(file)) continue;
    const targets = specifiersOf(file, source).map((specifier) => resolve(file, specifier));
    edges.set(
      file,
      targets.filter((t): t is string => t !== null && files.has(t)),
    );
  }
  const cycles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string) => {
    const at = path.indexOf(file);
    if (at >= 0) {
      cycles.push([...path.slice(at), file].join(' → '));
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    for (const next of edges.get(file) ?? []) visit(next);
    path.pop();
    done.add(file);
  };
  for (const file of [...edges.keys()].sort()) visit(file);
  return cycles;
}

function sourceFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of SOURCE_DIRS) {
    for (const entry of readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !SOURCE_FILE.test(entry.name)) continue;
      const absolute = path.join(entry.parentPath, entry.name);
      files.set(path.relative(ROOT, absolute).split(path.sep).join('/'), readFileSync(absolute, 'utf8'));
    }
  }
  return files;
}

describe('import boundaries', () => {
  it('holds for every source file', () => {
    const files = sourceFiles();
    // A walk that found nothing would pass vacuously.
    expect(files.size).toBeGreaterThan(100);
    const violations = boundaryViolations(files);
    if (violations.length > 0) console.error(`Imports that cross a layer:\n${violations.join('\n')}`);
    expect(violations).toEqual([]);
  });

  it('finds no import cycle in server/', () => {
    const cycles = importCycles(sourceFiles(), 'server');
    if (cycles.length > 0) console.error(`Import cycles:\n${cycles.join('\n')}`);
    expect(cycles).toEqual([]);
  });

  it('reports a planted cycle with every file on it', () => {
    const planted = new Map([
      ['server/a.ts', "import { b } from './channels/b.ts';"],
      ['server/channels/b.ts', "import type { C } from '../c.ts';"],
      ['server/c.ts', "export { a } from './a.ts';"],
      ['server/d.ts', "import { a } from './a.ts';"],
    ]);
    expect(importCycles(planted, 'server')).toEqual([
      'server/a.ts → server/channels/b.ts → server/c.ts → server/a.ts',
    ]);
  });

  it('catches a planted import of each kind that crosses a layer', () => {
    const planted = new Map([
      ['schemas/protocol/bad.ts', "import { db } from '../../server/db/client.ts';"],
      ['worker/bad.ts', "export { useChannel } from '../src/data/channels.ts';"],
      // A template import is checked by its fixed prefix.
      ['src/store/bad.ts', ['const c = await import(`../data/$', '{name}.ts`);'].join('')],
      ['server/agents/bad.ts', "const ui = await import('../../src/app/app.tsx');"],
      ['server/channels/bad.ts', "import { registerChannelRoutes } from '../http/channels.ts';"],
      ['server/files/bad.ts', "const r = require('../realtime/index.ts');"],
    ]);
    expect(boundaryViolations(planted)).toEqual([
      'schemas/protocol/bad.ts: ../../server/db/client.ts (schemas/ imports nothing of ours)',
      'worker/bad.ts: ../src/data/channels.ts (worker/ imports only worker/, schemas/ and src/store/)',
      'src/store/bad.ts: ../data/ (src/store/ imports only src/store/ and schemas/)',
      'server/agents/bad.ts: ../../src/app/app.tsx (server/ never imports src/ or worker/)',
      'server/channels/bad.ts: ../http/channels.ts (services import neither server/http/ nor server/realtime/)',
      'server/files/bad.ts: ../realtime/index.ts (services import neither server/http/ nor server/realtime/)',
    ]);
  });

  it('lets each layer import what sits below it, and npm packages', () => {
    const allowed = new Map([
      ['schemas/protocol/index.ts', "import { z } from 'zod';\nexport * from './messages.ts';"],
      ['worker/engine.ts', "import { db } from '../src/store/db.ts';\nimport { x } from '../schemas/rx.ts';"],
      ['server/http/channels.ts', "import { createChannel } from '../channels/channels.ts';"],
      ['server/realtime/index.ts', "import { rooms } from '../context.ts';"],
      ['server/app.ts', "import { createRealtime } from './realtime/index.ts';"],
      ['server/channels/channels.ts', "import { randomUUID } from 'node:crypto';"],
    ]);
    expect(boundaryViolations(allowed)).toEqual([]);
  });
});
