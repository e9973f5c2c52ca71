// What the message services need from the app context: the database and the broadcaster.
import type { AppContext } from '../context.ts';

export type MessagesContext = Pick<AppContext, 'db' | 'broadcast'>;
