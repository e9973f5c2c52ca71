// The packages kept off the channel route's first path: checked in our sources' static imports
// (tests/unit/first-path.test.ts) and in the built app's first scripts (e2e/first-scripts.spec.ts).

/** Loaded on demand on purpose; each names where it is loaded instead. */
export const KEPT_OFF: Record<string, string> = {
  zod: "the route table with the tab's first write (worker/rest-calls.ts); client-config.ts and file-limit.ts with the answer",
  '@tiptap/react': 'the composer, after the first rows (decision 0024)',
  '@tiptap/core': 'the composer, after the first rows (decision 0024)',
  'prosemirror-view': 'the composer, after the first rows (decision 0024)',
  sonner: 'the first toast asked for, or after the first rows (src/app/toast.ts, toaster.tsx)',
  'date-fns':
    'the screens that format dates by a pattern (settings, metrics, drafts); the rows write theirs out (day.ts)',
  rxdb: "the tab's own store, with its first write or after the first rows (decision 0065)",
  dexie: "the tab's own store, with its first write or after the first rows (decision 0065)",
  rxjs: "the tab's own store and the worker's reads (decision 0065)",
  dompurify: 'the message sanitiser, with the first message more than plain paragraphs (decision 0067)',
};
