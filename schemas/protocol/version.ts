// The protocol version: what a client and server must agree on to talk, and how a client says which it speaks.
import { z } from 'zod';

/**
 * Bump when any schema in schemas/protocol/ changes shape (tests/unit/protocol-version.test.ts checks). History:
 * 1 — first protocol: sign-in, workspaces, channels, messages with per-channel change sequence.
 * 2 — channel roles and permissions, membership, requests, sections, groups, member roles, visits.
 * 3 — message actions (reactions, pins, stars, polls, forward), search, activities, files.
 * 4 — agents, knowledge sources, MCP connections, agent answers (tool calls, citations), usage and audit.
 * 5 — refresh {value: 'channelMembers', channelId}: a channel's member list changed.
 * 6 — security limits: channelRequest.channelName is null for a requester who is not a member of the channel; agent limits: the allowed `models` with the agent list, `serverDailyTokenCap` with usage and settings; input bounds: length checks stop before patterns, linear channel-name pattern, `page` at most 100 000; upload signing names the workspace (institutionId), whose upload cap the bytes count against; sessions: DELETE /api/users/sessions/:sessionId and POST /api/users/sessions/revoke-others.
 * 7 — every REST route in one table (routes.ts) with the schema of its answer: errorBody, okResponse and the
 *     list and single-entity answers that had none (workspaces, invitations, members, channels, roles, agents,
 *     knowledge sources, MCP connections and templates, uploads, tool-call decisions); the client names its
 *     protocol (Lantern-Protocol header, handshake auth.protocol) and an outdated one is refused (protocolRefusal).
 * 8 — devices and account deletion: a session's deviceName and sameDevice, the ping's optional
 *     sessionClientId (and the Lantern-Device sign-in header); GET /api/users/account-deletion, DELETE
 *     /api/users, POST /api/auth/account-deletion(/code), GET .../deleted-members, PUT .../primary-owner;
 *     identity providers: GET /api/auth/providers, the popup's start and callback, POST
 *     /api/auth/signin/provider(/confirm), GET/DELETE /api/users/signin-methods.
 *     LTI 1.3: POST /api/lti/launch (an ltik, and the state from platform storage, for a session and the
 *     course's workspace and channel),
 *     POST /api/lti/deep-link, a workspace's LTI platforms (list, register, remove) and dynamic-registration links.
 * 9 — Web Push: GET /api/push/config, PUT/DELETE /api/users/sessions/fcm-token, PUT /api/users/push-settings,
 *     PUT .../channels/:channelId/push-level, the push message fields; the ping's optional channelId.
 * 10 — workspace metrics: the nine GET .../metric/* answers and GET/PUT .../metric/settings (metrics.ts).
 *      Operations: errorBody's optional requestId (also the X-Request-Id header); GET /api/client-config
 *      (environment and error reporting, open before sign-in).
 *      Web Push read-back: GET /api/users/push-settings (Do-not-disturb and the levels set per channel).
 *      The route table names each route's body, query and success statuses (the server checks them before the
 *      handler) and GET /api/openapi.json (api-description.ts); uploadQuery moved into files.ts; the socket
 *      event table (socket-events.ts) for the generated docs.
 *      The workspace change feed: POST .../messages/changes (workspaceChangesBody, workspaceChangesResponse).
 *      Presence in batches: userOnlineStatusUpdates {updates} when several users changed at once.
 * 11 — the push message's unreadCount (the recipient's unread total, for the app badge); PUT
 *      /api/users/sessions/fcm-token takes a Firebase registration token where FCM is configured.
 *      Onboarding (decision 0045): PUT /api/institutions/:id/members (the caller's own membership:
 *      checklistDismissed), GET .../checklist, GET/POST/DELETE .../invite-link, GET/POST
 *      /api/invite-links/:token (workspace-checklist.ts, invite-links.ts).
 *      A new version is available: GET /api/version (the served buildId and route rules, open before sign-in)
 *      and the socket's serverBuild {buildId} on every connection (app-version.ts).
 *      Sends that cannot succeed (decision 0044): GET /api/client-config names fileMaxBytes (the composer
 *      refuses a larger file before uploading); an acknowledgement error may carry retryable: true (the server
 *      failed or was busy, so the same event may succeed later; a refusal has none). A post's createdAt is the
 *      time it was written, read from its UUIDv7 genId within the last 7 days.
 *      GET .../channels/:channelId/lookup (decision 0049): a link to a channel not on the device tells
 *      "Channel not found" from a private channel one may ask to join.
 *      GET /api/files/:id/excerpt {excerpt} (decision 0052): the opening text of a Word or PowerPoint file.
 *      A channel's description (decision 0045): on the channel, and in its PUT body with or instead of the
 *      name. A 400 for bad input names each refused field in `fields` (decision 0048).
 *      A membership's unreadThrough: the channel seq its unreadCount was counted at (decision 0047).
 *      Workspace settings (decision 0054): POST .../invited-members/:invitationId/resend, a workspace
 *      invitation's invitedBy (workspaceInvitation), PUT .../channels/:channelId/default {isDefault}, and
 *      createChannelBody's optional isDefault (admins create a default channel); the workspace's picture,
 *      set with its PUT (updateInstitutionBody: name, picture or both).
 *      Link previews (decision 0053): GET .../link-previews?url= {preview, reason}, GET
 *      .../link-previews/image?url= (the page's picture, served by us), PUT .../link-preview-setting
 *      {linkPreviews} (admins), and the workspace's linkPreviews (link-previews.ts, institutions.ts).
 * 12 — the upload address's signature is at least one character (an empty one is bad input, 400, as a
 *      missing one always was; it was refused as an invalid address, 403).
 * 13 — GET .../channels/:channelId/messages takes an optional `before` (a createdSeq): the live messages
 *      older than that one, newest first (decision 0071); the pinned and starred lists keep only page and
 *      limit. Adds only: older clients keep paging by number.
 * 14 — POST .../channels/:channelId/messages takes {content} without a genId (spec §7): the server names
 *      the message. Adds only: every client sends one still.
 * 15 — stars follow the person (decision 0082): messages read over REST carry the reader's `isStarred`,
 *      the catch-up feed lists the caller's starred genIds (`starred`, `starredComplete`), and
 *      messageStarred goes to the starrer's other sessions; GET .../messages/:messageId reads one message
 *      (a reply's original older than the device holds, decision 0085). Adds only.
 */
export const PROTOCOL_VERSION = 15;

/**
 * The oldest client protocol the server still answers (docs/decisions/0020-protocol-version-on-the-wire.md).
 * Raise it to PROTOCOL_VERSION when a bump changes or removes something an older client reads; leave it
 * when the bump only adds. Operators can raise it further with PROTOCOL_MIN_VERSION.
 */
export const MIN_PROTOCOL_VERSION = 7;

export { PROTOCOL_HEADER } from './headers.ts';

/** What a person reads when the server no longer speaks their client's protocol. */
export const PROTOCOL_OUTDATED_MESSAGE = 'A new version of Lantern is available. Reload the page to use it.';

/**
 * The socket handshake's `auth` carries `protocol: PROTOCOL_VERSION` beside the token. A refused one gets a
 * connect_error whose `data` is this; a refused REST call gets 426 with PROTOCOL_OUTDATED_MESSAGE.
 */
// Marked pure: a page that reads only PROTOCOL_VERSION from this file leaves the schema, and zod, out.
export const protocolRefusal = /* @__PURE__ */ z.object({
  code: z.literal('protocol_outdated'),
  /** The oldest protocol the server answers. */
  minVersion: z.number().int(),
});
export type ProtocolRefusal = z.infer<typeof protocolRefusal>;
