// What the message services need from the app context: the database and the broadcaster, plus the
// configuration and secrets that a post's agent run needs to open the agent's MCP connections.
import type { AppContext } from '../context.ts';

export type MessagesContext = Pick<AppContext, 'db' | 'broadcast' | 'config' | 'secrets'>;
