// The names of Lantern's own request headers, in a file without zod: the tab's REST client reads them on
// a page's first path, where no schema is loaded yet (decision 0036).

/** The HTTP request header in which a client names its PROTOCOL_VERSION (absent: a tool, accepted). */
export const PROTOCOL_HEADER = 'Lantern-Protocol';

/** The header in which the client names its device id on sign-in requests. */
export const SESSION_CLIENT_HEADER = 'Lantern-Device';
