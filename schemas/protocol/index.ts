// The wire protocol between client and server: every REST body, query, response and socket payload.
// Both sides parse with these schemas; types are inferred from them so the two cannot drift apart.
// One file per domain; import from here. Shared building blocks first, so that walking the exports
// (tests/unit/input-bounds.test.ts) meets a schema under its own name before inside another.

export * from './limits.ts';
export * from './primitives.ts';
export * from './version.ts';

// The domains, each in its own file.

export * from './account.ts';
export * from './activities.ts';
export * from './agent-answers.ts';
export * from './agent-usage.ts';
export * from './agents.ts';
export * from './api-description.ts';
export * from './app-version.ts';
export * from './channel-members.ts';
export * from './channels.ts';
export * from './client-config.ts';
export * from './errors.ts';
export * from './files.ts';
export * from './groups.ts';
export * from './identity.ts';
export * from './institutions.ts';
export * from './invite-links.ts';
export * from './link-previews.ts';
export * from './lti.ts';
export * from './mcp.ts';
export * from './members.ts';
export * from './message-actions.ts';
export * from './messages.ts';
export * from './metrics.ts';
export * from './push.ts';
export * from './routes.ts';
export * from './search.ts';
export * from './sections.ts';
export * from './sessions.ts';
export * from './socket.ts';
export * from './socket-events.ts';
export * from './users.ts';
export * from './visits.ts';
export * from './workspace-checklist.ts';
