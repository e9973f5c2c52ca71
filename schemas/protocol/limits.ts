// Sizes and page limits shared by several domains.

// ───────────────────────────── limits ─────────────────────────────
/** The longest id the API takes (the `id` schema, primitives.ts). */
export const ID_MAX = 64;
export const MESSAGE_PAGE_SIZE = 30;
export const MESSAGE_PAGE_MAX = 100;
export const CHANGES_PAGE_MAX = 500;
/** Channels one workspace change-feed request may name (a catch-up asks in chunks of this many). */
export const CHANGES_CHANNELS_MAX = 50;
/** The caller's stars a catch-up answer lists (workspaceChangesResponse.starred): enough for anyone's saved list. */
export const STARRED_SYNC_MAX = 2000;
/** Rows one workspace change-feed answer holds at most: each channel gets its share of this. */
export const CHANGES_FEED_ROWS_MAX = 5000;
/** Longest message HTML accepted (after sanitising the server stores at most this). */
export const MESSAGE_CONTENT_MAX = 40_000;
export const NAME_MAX = 80;
/** A workspace picture's data URL, as the client scales it down (picture-data-url.ts: 2,048 characters). */
export const WORKSPACE_PICTURE_MAX = 2_048;
/** A channel's description: a line or two under its name, as Slack's is. */
export const CHANNEL_DESCRIPTION_MAX = 250;
export const OTP_LENGTH = 6;
/** Highest page number a paged list accepts: far beyond any real list, and keeps OFFSET a safe integer. */
export const PAGE_NUMBER_MAX = 100_000;
export const PAGE_NUMBER_TOO_BIG = `Pages are numbered up to ${PAGE_NUMBER_MAX}`;

// ───────────────────────────── ids in paths ─────────────────────────────
// Here, not in routes.ts: the tab checks an id taken from a link on the channel's first path, where the route
// table and zod are not loaded (e2e/first-scripts.spec.ts).

/**
 * Whether a value can fill one `:name` segment. encodeURIComponent leaves "." and ".." as they are (and
 * "%2E" is a dot to a URL parser too), so such a segment would climb the path to another route: an id
 * taken from a link (`#..`) would have the app call GET …/channels/:channelId instead of the message.
 */
export function isPathParam(value: string): boolean {
  return value !== '' && !/^(\.|%2e){1,2}$/i.test(value);
}

/** Whether a value can be an id at all (the `id` schema's rule) and fill a path segment. */
export function isIdParam(value: string): boolean {
  return value.length <= ID_MAX && isPathParam(value);
}
