// The channel route's first path (decisions 0036, 0062, 0065): what the tab's entry imports statically, followed
// through our own files, must not reach the packages that were moved behind dynamic imports. A static
// import of one of them anywhere on that path would put it back into the scripts a first visit waits for.
// Files under schemas/ are reached but not followed: vite.config.ts declares them free of side effects, so
// the bundler keeps only the exports a page uses (a constant beside a schema brings no zod). A schema
// file named below is still caught when reached. The bundle itself is measured by `npm run bench:client`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEPT_OFF } from '../support/first-path-packages.ts';
import { staticPath } from '../support/static-imports.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY = 'src/main.tsx';

/** Our files that must stay off the path, with where they load instead. */
const FILES_KEPT_OFF: Record<string, string> = {
  'schemas/protocol/routes.ts': 'src/store/http.ts, with the first call',
  'schemas/protocol/client-config.ts': 'with the answer (client-config.ts, file-limit.ts)',
  'src/components/channels/create-channel-dialog.tsx': 'the sidebar, when first opened',
  'src/components/messages/composer.tsx': 'the channel screen, after the first rows',
  'src/components/messages/agent-answer.tsx':
    "message-parts.tsx, after a channel's first rows (decision 0067)",
  'src/components/messages/poll-card.tsx': "message-parts.tsx, after a channel's first rows (decision 0067)",
  'src/components/messages/attachment-list.tsx':
    "message-parts.tsx, after a channel's first rows (decision 0067)",
  'src/components/messages/link-preview-card.tsx':
    "message-parts.tsx, after a channel's first rows (decision 0067)",
  'src/screens/sign-in.tsx':
    'the router, when the app itself goes to /signin; a first visit there is served signin.html (decision 0067)',
  'src/components/ui/overlay-parts.tsx':
    "Radix's menus, tooltips and popovers, after a channel's first rows (overlays.ts, decision 0067)",
  'src/components/ui/dialog-panel.tsx': 'ui/dialog.tsx, when a dialog first opens (decision 0067)',
  'src/components/messages/message-sanitizer.ts':
    'message-html.ts, with the first message that needs it (decision 0067)',
  'src/store/database.ts':
    "src/data/client.ts, with the tab's first write or after the first rows (decision 0065)",
};

/** The channel route's first path; files under schemas/ are reached but not followed (see above). */
const firstPath = (entry: string, read: (file: string) => string | null) =>
  staticPath([entry], read, (file) => file.startsWith('schemas/'));

const readRepoFile = (file: string) => {
  const absolute = path.join(ROOT, file);
  return existsSync(absolute) ? readFileSync(absolute, 'utf8') : null;
};

describe("the channel route's first path", () => {
  it('reaches none of the packages and files loaded on demand', () => {
    const { files, packages } = firstPath(ENTRY, readRepoFile);
    // A walk that found little would pass vacuously.
    expect(files.size).toBeGreaterThan(100);
    expect(files.has('src/screens/channel.tsx')).toBe(true);
    const found = [
      ...Object.keys(KEPT_OFF)
        .filter((name) => packages.has(name))
        .map((name) => `${name} (imported by ${packages.get(name)}; belongs in ${KEPT_OFF[name]})`),
      ...Object.keys(FILES_KEPT_OFF)
        .filter((file) => files.has(file))
        .map((file) => `${file} (belongs in ${FILES_KEPT_OFF[file]})`),
    ];
    expect(found).toEqual([]);
  });

  it('catches a planted static import, and lets a dynamic or type-only one pass', () => {
    const planted = new Map([
      ['src/main.tsx', "import { a } from './app/a.ts';\nimport type { Z } from 'zod';"],
      ['src/app/a.ts', "export { b } from './b.ts';\nconst later = () => import('sonner');"],
      ['src/app/b.ts', "import { z } from 'zod';\nimport { type T, c } from '../../schemas/c.ts';"],
      ['src/app/c.tsx', "import { toast } from 'sonner';"],
      // Reached, not followed: the bundler keeps only what is used of a schema file.
      ['schemas/c.ts', "import { d } from './d.ts';\nimport { z } from 'zod';"],
      ['schemas/d.ts', "import { toast } from 'sonner';"],
    ]);
    const { files, packages } = firstPath('src/main.tsx', (file) => planted.get(file) ?? null);
    expect([...files].sort()).toEqual(['schemas/c.ts', 'src/app/a.ts', 'src/app/b.ts', 'src/main.tsx']);
    expect(packages.get('zod')).toBe('src/app/b.ts');
    expect(packages.has('sonner')).toBe(false);
  });
});
