// docs/socket-events.md is generated from the socket event table; this fails when someone changed an event
// (its payload, its acknowledgement, or the list) without running `npm run docs:socket`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SOCKET_DOCS_PATH, socketEventsMarkdown } from '../../scripts/socket-docs.ts';

describe('the socket events page', () => {
  it('is what npm run docs:socket writes from schemas/protocol/socket-events.ts', () => {
    const committed = readFileSync(SOCKET_DOCS_PATH, 'utf8');
    expect(committed, 'docs/socket-events.md is stale: run `npm run docs:socket`').toBe(
      socketEventsMarkdown(),
    );
    expect(committed).toContain('### `postMessage`');
    expect(committed).toContain('### `newMessage`');
  });
});
