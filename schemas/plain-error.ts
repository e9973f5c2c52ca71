// What a person reads when input is refused (issue 15 item 4): a zod issue as a sentence that names the
// field in words. The schemas' own messages are already sentences ("Name cannot be empty") and are kept;
// zod's defaults ("name: Too big: expected string to have <=80 characters") are schema text and are put
// into words here, so no server answer or form shows them.
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** zod's own messages, as opposed to the sentences our schemas give. */
const ZOD_DEFAULT = /^(Invalid|Too big:|Too small:|Unrecognized key)/;

/** Fields whose key does not read well as words. */
const NOUNS: Record<string, string> = {
  email: 'the e-mail address',
  emails: 'the e-mail addresses',
  content: 'the message',
  url: 'the address',
  page: 'the page number',
  limit: 'the page size',
  days: 'the number of days',
  genId: 'the message id',
  institutionId: 'the workspace id',
  institutionIds: 'the workspace ids',
  fileKey: 'the file',
};

const words = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();

/** The field an issue is about, in words ("the channel id"), or null for the request as a whole. */
export function fieldLabel(path: readonly PropertyKey[]): string | null {
  const key = path.filter((k): k is string => typeof k === 'string').at(-1);
  if (key === undefined) return null;
  if (NOUNS[key]) return NOUNS[key];
  // A channel role's flags (canPost, canPinMessage): "the post permission".
  if (/^can[A-Z]/.test(key)) return `the ${words(key.slice(3))} permission`;
  return `the ${words(key)}`;
}

/** " (number 2 in the list)" for an issue inside a list, so a person knows which entry to fix. */
function position(path: readonly PropertyKey[]): string {
  const index = path.findLast((k) => typeof k === 'number');
  return typeof index === 'number' ? ` (number ${index + 1} in the list)` : '';
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const count = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
  null: 'empty',
};

const FORMATS: Record<string, string> = {
  email: 'e-mail address',
  url: 'web address',
  uuid: 'id',
  datetime: 'date and time',
  date: 'date',
};

/** One issue as a sentence. */
export function plainIssue(issue: Issue): string {
  const at = position(issue.path);
  if (!ZOD_DEFAULT.test(issue.message)) return `${issue.message}${at}`;
  const field = capital(fieldLabel(issue.path) ?? 'this request') + at;
  switch (issue.code) {
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `${field} can be at most ${count(max, 'character')}.`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `${field} can hold at most ${count(max, 'entry').replace('entrys', 'entries')}.`;
      return `${field} can be at most ${max.toLocaleString('en-US')}.`;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string')
        return min <= 1 ? `${field} cannot be empty.` : `${field} needs at least ${count(min, 'character')}.`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return min <= 1 ? `${field} needs at least one entry.` : `${field} needs at least ${min} entries.`;
      return `${field} must be at least ${min.toLocaleString('en-US')}.`;
    }
    case 'invalid_type':
      return /received undefined$/.test(issue.message)
        ? `${field} is missing.`
        : `${field} should be ${EXPECTED[issue.expected] ?? issue.expected}.`;
    case 'invalid_value':
      return `${field} should be one of ${issue.values.map((v) => (typeof v === 'string' ? `“${v}”` : String(v))).join(', ')}.`;
    case 'unrecognized_keys': {
      const keys = issue.keys.map((k) => `“${k}”`).join(', ');
      return issue.path.length === 0
        ? `This request does not take ${keys}.`
        : `${field} does not take ${keys}.`;
    }
    case 'invalid_format':
      return `${field} is not a valid ${FORMATS[issue.format] ?? 'value'}.`;
    default:
      return `${field} is not valid.`;
  }
}

/** The sentence for a value a field's schema refuses, or null: forms check a field as the person types. */
export function fieldProblem(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  const issue = result.success ? undefined : result.error.issues[0];
  return issue ? plainIssue(issue) : null;
}
