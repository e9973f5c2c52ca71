// Input is bounded before it is examined (issue 9, item 5): every string schema exported from schemas/,
// every pattern inside them, the agent command parser and the server's regexes over user text finish fast
// on adversarial 1 MB inputs. The schemas are found by walking every export, so a new one is covered
// without being listed here. This is the one timed assertion the issue asks for: each case is measured
// once, after a warm-up, against a budget far above what a linear pass over 1 MB takes.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as collections from '../../schemas/collections.ts';
import * as mentionSuggestions from '../../schemas/mention-suggestions.ts';
import * as permissions from '../../schemas/permissions.ts';
import * as protocol from '../../schemas/protocol.ts';

const BUDGET_MS = 50;
const MB = 1_000_000;

/** Repeated characters that match a pattern's prefix, then one that breaks it (the backtracking trigger). */
const ADVERSARIAL: Record<string, string> = {
  letters: `${'a'.repeat(MB)}!`,
  spaces: `${' '.repeat(MB)}x`,
  dashes: '-'.repeat(MB),
  dots: '.'.repeat(MB),
  digits: `${'0'.repeat(MB)}x`,
  underscores: `${'_'.repeat(MB)}!`,
  wordsAndSpaces: `${'a '.repeat(MB / 2)}!`,
  wordsAndDashes: `${'a-'.repeat(MB / 2)}!`,
  dottedLabels: `${'a.'.repeat(MB / 2)}@`,
  mailLike: `a@${'a.'.repeat(MB / 2)}!`,
  urlLike: `http://${'a'.repeat(MB)}`,
  uuidLike: `${'0'.repeat(8)}-${'0'.repeat(MB)}`,
};

type Walked = { path: string; schema: z.ZodType };

/** Every string schema reachable from `schema`, with the path that reaches it (objects, unions, pipes…). */
function stringSchemas(schema: unknown, path: string, seen: Set<unknown>, out: Walked[]): void {
  if (!(schema instanceof z.ZodType) || seen.has(schema)) return;
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  if (def.type === 'string') out.push({ path, schema });
  const visit = (child: unknown, step: string) => stringSchemas(child, `${path}.${step}`, seen, out);
  switch (def.type) {
    case 'object':
      for (const [key, child] of Object.entries(def.shape as Record<string, unknown>)) visit(child, key);
      visit(def.catchall, '*');
      break;
    case 'array':
      visit(def.element, '[]');
      break;
    case 'record':
      visit(def.keyType, 'key');
      visit(def.valueType, 'value');
      break;
    case 'union':
      for (const [i, option] of (def.options as unknown[]).entries()) visit(option, `|${i}`);
      break;
    case 'intersection':
      visit(def.left, '&left');
      visit(def.right, '&right');
      break;
    case 'tuple':
      for (const [i, item] of (def.items as unknown[]).entries()) visit(item, `${i}`);
      visit(def.rest, '...');
      break;
    case 'pipe':
      visit(def.in, 'in');
      visit(def.out, 'out');
      break;
    case 'lazy':
      visit((def.getter as () => unknown)(), 'lazy');
      break;
    default:
      // optional, nullable, default, prefault, readonly, catch, nonoptional, success: one inner schema.
      visit(def.innerType, def.type);
  }
}

function exportedStringSchemas(): Walked[] {
  const modules = { protocol, permissions, collections, mentionSuggestions };
  const out: Walked[] = [];
  const seen = new Set<unknown>();
  for (const [moduleName, exports] of Object.entries(modules))
    for (const [name, value] of Object.entries(exports))
      stringSchemas(value, `${moduleName}.${name}`, seen, out);
  return out;
}

/** The regular expressions a string schema's checks run (zod's formats such as email and uuid included). */
function patternsOf(schema: z.ZodType): RegExp[] {
  const checks = (schema._zod.def as { checks?: { _zod: { def: { pattern?: unknown } } }[] }).checks ?? [];
  return checks.flatMap((c) => (c._zod.def.pattern instanceof RegExp ? [c._zod.def.pattern] : []));
}

/** Milliseconds `run` takes on `input`, after one warm-up call on a short input of the same shape. */
function timed(run: (input: string) => unknown, input: string): number {
  run(input.slice(0, 100));
  const start = performance.now();
  run(input);
  return performance.now() - start;
}

const slowOnes = (run: (input: string) => unknown) =>
  Object.entries(ADVERSARIAL)
    .map(([name, input]) => ({ name, ms: Math.round(timed(run, input)) }))
    .filter((r) => r.ms >= BUDGET_MS);

const walked = exportedStringSchemas();

describe('input bounds', () => {
  it('finds the string schemas by walking every export of schemas/', () => {
    const paths = walked.map((w) => w.path);
    expect(paths).toContain('protocol.channelName');
    expect(paths).toContain('protocol.email.out');
    expect(walked.length).toBeGreaterThan(100);
  });

  it.each(walked.map((w) => [w.path, w.schema] as const))(
    '%s decides on 1 MB of adversarial text in under 50 ms',
    (_path, schema) => {
      expect(slowOnes((input) => schema.safeParse(input))).toEqual([]);
    },
  );

  it('stops a string at its length limit before any pattern runs', () => {
    const unguarded = walked.flatMap(({ path, schema }) => {
      const checks =
        (schema._zod.def as { checks?: { _zod: { def: Record<string, unknown> } }[] }).checks ?? [];
      const firstPattern = checks.findIndex((c) => c._zod.def.pattern instanceof RegExp);
      if (firstPattern < 0) return [];
      const guarded = checks
        .slice(0, firstPattern)
        .some((c) => c._zod.def.check === 'max_length' && c._zod.def.abort === true);
      return guarded ? [] : [path];
    });
    expect(unguarded).toEqual([]);
  });

  const patterns = [...new Set(walked.flatMap((w) => patternsOf(w.schema)))];
  it.each(patterns.map((p) => [String(p), p] as const))(
    'the pattern %s is linear: under 50 ms on 1 MB even without the length limit',
    (_source, pattern) => {
      expect(slowOnes((input) => pattern.test(input))).toEqual([]);
    },
  );
});
