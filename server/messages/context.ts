// What the message services need from the app context: the database and the broadcaster, plus the
// configuration, secrets and log that a post's agent run needs to open the agent's MCP connections (the
// log receives their servers' stderr and error bodies, which callers never see).
import type { AppContext } from '../context.ts';

export type MessagesContext = Pick<AppContext, 'db' | 'broadcast' | 'config' | 'secrets' | 'log'>;
