// Every REST route the server registers: its method, its path pattern as registered, the schema of a
// successful answer and the schemas of the body and query it takes. Tests parse every answer with it; the
// client parses its answers with it instead of casting; the server refuses a body or query that does not
// match (server/http/request-schemas.ts) and publishes the table as OpenAPI (server/http/openapi.ts). A
// route the server adds without an entry here fails the server tests (tests/server/routes.test.ts).

import type { z } from 'zod';
import {
  accountDeletedResponse,
  accountDeletionCodeBody,
  accountDeletionPreview,
  deleteAccountBody,
  deleteAccountByCodeBody,
  deletedMembersResponse,
  handOverBody,
} from './account.ts';
import {
  activitiesQuery,
  activitiesResponse,
  markActivitiesReadBody,
  markActivitiesReadResponse,
} from './activities.ts';
import {
  agentRunsQuery,
  agentRunsResponse,
  agentSettingsBody,
  agentSettingsResponse,
  agentUsageQuery,
  agentUsageResponse,
} from './agent-usage.ts';
import {
  agentResponse,
  agentsResponse,
  createAgentBody,
  createKnowledgeSourceBody,
  deletedAgentResponse,
  deletedKnowledgeSourceResponse,
  knowledgeSourceResponse,
  knowledgeSourcesResponse,
  toolCallDecisionBody,
  toolCallDecisionResponse,
  updateAgentBody,
  uploadKnowledgeSourceQuery,
} from './agents.ts';
import { openApiDocumentResponse } from './api-description.ts';
import { appVersionResponse } from './app-version.ts';
import {
  channelMemberResponse,
  channelMembersBody,
  channelMembersQuery,
  channelMembersResponse,
  channelRequestResponse,
  channelRequestsQuery,
  channelRequestsResponse,
  channelRoleResponse,
  channelRolesResponse,
  createChannelRequestBody,
  createChannelRoleBody,
  profileChannelsBody,
  profileChannelsResponse,
  roleMembersBody,
  roleMembersResponse,
  transferOwnershipBody,
  updateChannelRequestBody,
  updateChannelRoleBody,
  updateMembershipBody,
} from './channel-members.ts';
import {
  channelDefaultBody,
  channelLookupResponse,
  channelResponse,
  channelsResponse,
  channelWithMembership,
  createChannelBody,
  directMessageBody,
  joinedChannelsResponse,
  updateChannelBody,
} from './channels.ts';
import { clientConfigResponse } from './client-config.ts';
import { okResponse } from './errors.ts';
import {
  deleteFilesBody,
  deleteFilesResponse,
  fileExcerptResponse,
  fileResponse,
  fileSignQuery,
  fileSignResponse,
  filesQuery,
  filesResponse,
  fileUploadResponse,
  registerFileBody,
  updateFileBody,
  uploadQuery,
} from './files.ts';
import { groupBody, groupEmailsBody, groupEmailsResponse, groupResponse, groupsResponse } from './groups.ts';
import {
  identityProvidersResponse,
  providerConfirmBody,
  providerSigninBody,
  providerSigninResponse,
  signinMethodsResponse,
} from './identity.ts';
import {
  createInstitutionResponse,
  emailsBody,
  institutionBody,
  institutionsResponse,
  institutionWithMember,
  invitationsResponse,
  inviteMembersResponse,
  membersResponse,
  myInvitationsResponse,
  resendInvitationResponse,
  updateInstitutionBody,
} from './institutions.ts';
import { createInviteLinkBody, inviteLinkPreview, inviteLinkResponse } from './invite-links.ts';
import { isPathParam } from './limits.ts';
import {
  linkPreviewQuery,
  linkPreviewResponse,
  linkPreviewSettingBody,
  linkPreviewSettingResponse,
} from './link-previews.ts';
import {
  ltiDeepLinkBody,
  ltiDeepLinkResponse,
  ltiLaunchBody,
  ltiLaunchResponse,
  ltiPlatform,
  ltiPlatformBody,
  ltiPlatformsResponse,
  ltiRegistrationLinkResponse,
} from './lti.ts';
import {
  mcpConnectBody,
  mcpConnectionBody,
  mcpConnectionResponse,
  mcpConnectionsResponse,
  mcpConnectResponse,
  mcpTemplatesResponse,
} from './mcp.ts';
import {
  bulkUpdateMembersBody,
  bulkUpdateMembersResponse,
  memberProfile,
  memberResponse,
  updateMemberBody,
} from './members.ts';
import {
  changesQuery,
  changesResponse,
  knownGenIdsBody,
  knownGenIdsResponse,
  message,
  messageListQuery,
  messageListResponse,
  messagePage,
  messagePageQuery,
  postMessageRestBody,
  workspaceChangesBody,
  workspaceChangesResponse,
} from './messages.ts';
import {
  channelCreationTrendQuery,
  channelCreationTrendResponse,
  engagingMessagesQuery,
  engagingMessagesResponse,
  growingChannelsResponse,
  hourlyActivityHeatmapResponse,
  latestChannelsResponse,
  metricSettings,
  metricStatsResponse,
  metricWindowQuery,
  mostVisitedChannelsResponse,
  mostVisitedGroupsResponse,
  mostVisitedMembersResponse,
} from './metrics.ts';
import {
  channelPushLevelBody,
  channelPushLevelResponse,
  pushConfigResponse,
  pushPreferencesResponse,
  pushSettingsBody,
  pushSettingsResponse,
  pushTokenBody,
} from './push.ts';
import { messageSearchQuery, messageSearchResponse } from './search.ts';
import {
  createSectionBody,
  reorderSectionsBody,
  replaceSectionsBody,
  sectionCreatedResponse,
  sectionsResponse,
  updateSectionBody,
} from './sections.ts';
import { pingSessionBody, revokeOtherSessionsResponse, userSessionsResponse } from './sessions.ts';
import { signinBody, signinOtpQuery, signinResponse, updateUserBody, user } from './users.ts';
import { ownMembershipResponse, updateOwnMembershipBody, workspaceChecklist } from './workspace-checklist.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A route whose answer is not JSON: the bytes of a file (or a redirect to where they are). */
export const BYTES = 'bytes';

export interface RestRoute {
  method: HttpMethod;
  /** As registered with Fastify: `:name` is one path segment. */
  path: string;
  /** The body of a 2xx answer; errors answer with errorBody. */
  response: z.ZodType | typeof BYTES;
  /** The JSON body the handler parses (optional when the schema accepts undefined), or raw bytes. */
  body?: z.ZodType | typeof BYTES;
  /** The query string the handler parses. Path parameters are the `:name` segments, each an `id`. */
  query?: z.ZodType;
  /** The statuses of a successful answer when not just 200 (201: created; both: created or already there). */
  status?: readonly number[];
}

/** What a route takes besides its path: checked before the handler runs, published in the OpenAPI document. */
interface RouteInput {
  body?: z.ZodType | typeof BYTES;
  query?: z.ZodType;
  status?: readonly number[];
}

const route = <
  M extends HttpMethod,
  P extends string,
  R extends z.ZodType | typeof BYTES,
  I extends RouteInput = Record<never, never>,
>(
  method: M,
  path: P,
  response: R,
  input?: I,
) => ({ method, path, response, ...(input as I) });

const workspace = '/api/institutions/:id';
const channels = `${workspace}/channels`;
const channel = `${channels}/:channelId`;
const sections = `${channels}/sections`;
const groups = `${workspace}/groups`;
const members = `${workspace}/members`;
const agent = `${workspace}/agents/:agentId`;
const knowledge = `${agent}/knowledge-sources`;
const mcp = `${agent}/mcp-connections`;
const metric = `${workspace}/metric`;

/** Named so a caller says which route it calls: `restRoutes.joinedChannels`. */
export const restRoutes = {
  // The API's own description (OpenAPI 3.1, public); its browsable reference /api/docs/* is swagger-ui's
  // HTML and assets, left out of this table on purpose (tests/server/routes.test.ts).
  openApi: route('GET', '/api/openapi.json', openApiDocumentResponse),
  // What the page needs before sign-in: the environment and error reporting (open; decision 0040).
  clientConfig: route('GET', '/api/client-config', clientConfigResponse),
  // The served build and its route rules, polled by open tabs (open; decision 0043).
  version: route('GET', '/api/version', appVersionResponse),
  // Sign-in and the signed-in user.
  signinCode: route('GET', '/api/auth/signin_otp', okResponse, { query: signinOtpQuery }),
  signin: route('POST', '/api/auth/signin', signinResponse, { body: signinBody }),
  me: route('GET', '/api/users', user),
  updateMe: route('PUT', '/api/users', user, { body: updateUserBody }),
  logout: route('PUT', '/api/users/logout', okResponse),
  sessions: route('GET', '/api/users/sessions', userSessionsResponse),
  revokeSession: route('DELETE', '/api/users/sessions/:sessionId', okResponse),
  revokeOtherSessions: route('POST', '/api/users/sessions/revoke-others', revokeOtherSessionsResponse),
  pingSession: route('PUT', '/api/users/sessions/ping', okResponse, { body: pingSessionBody.optional() }),
  // Web Push (decision 0032): the key to subscribe with, this session's subscription, DND, channel levels.
  pushConfig: route('GET', '/api/push/config', pushConfigResponse),
  savePushToken: route('PUT', '/api/users/sessions/fcm-token', okResponse, { body: pushTokenBody }),
  deletePushToken: route('DELETE', '/api/users/sessions/fcm-token', okResponse),
  pushPreferences: route('GET', '/api/users/push-settings', pushPreferencesResponse),
  pushSettings: route('PUT', '/api/users/push-settings', pushSettingsResponse, { body: pushSettingsBody }),
  channelPushLevel: route(
    'PUT',
    '/api/institutions/:id/channels/:channelId/push-level',
    channelPushLevelResponse,
    { body: channelPushLevelBody },
  ),

  // Sign-in through identity providers (the popup's start and callback pages are not JSON).
  identityProviders: route('GET', '/api/auth/providers', identityProvidersResponse),
  providerStart: route('GET', '/api/auth/provider/:providerId/start', BYTES),
  providerCallback: route('GET', '/api/auth/provider/callback', BYTES),
  providerCallbackPost: route('POST', '/api/auth/provider/callback', BYTES),
  providerSignin: route('POST', '/api/auth/signin/provider', providerSigninResponse, {
    body: providerSigninBody,
  }),
  providerConfirm: route('POST', '/api/auth/signin/provider/confirm', signinResponse, {
    body: providerConfirmBody,
  }),
  signinMethods: route('GET', '/api/users/signin-methods', signinMethodsResponse),
  unlinkSigninMethod: route('DELETE', '/api/users/signin-methods/:identityId', okResponse),

  // Workspaces, their members and invitations.
  workspaces: route('GET', '/api/institutions', institutionsResponse),
  createWorkspace: route('POST', '/api/institutions', createInstitutionResponse, {
    body: institutionBody,
    status: [201],
  }),
  myInvitations: route('GET', '/api/institutions/invited', myInvitationsResponse),
  declineInvitation: route('DELETE', '/api/institutions/invited/:invitationId', okResponse),
  renameWorkspace: route('PUT', workspace, institutionWithMember, { body: updateInstitutionBody }),
  members: route('GET', members, membersResponse),
  acceptInvitation: route('POST', members, createInstitutionResponse),
  invitations: route('GET', `${workspace}/invited-members`, invitationsResponse),
  invite: route('POST', `${workspace}/invited-members`, inviteMembersResponse, { body: emailsBody }),
  revokeInvitations: route('DELETE', `${workspace}/invited-members`, invitationsResponse, {
    body: emailsBody,
  }),
  // The workspace settings screen (decision 0054): an invitation's e-mail again, within the daily budget.
  resendInvitation: route(
    'POST',
    `${workspace}/invited-members/:invitationId/resend`,
    resendInvitationResponse,
  ),
  updateMembers: route('PUT', `${members}/bulk`, bulkUpdateMembersResponse, { body: bulkUpdateMembersBody }),
  leaveWorkspace: route('DELETE', `${members}/me`, okResponse),
  memberProfile: route('GET', `${members}/:memberId`, memberProfile),
  updateMember: route('PUT', `${members}/:memberId`, memberResponse, { body: updateMemberBody }),
  // The caller's own membership and the new workspace's checklist (decision 0045).
  updateOwnMembership: route('PUT', members, ownMembershipResponse, { body: updateOwnMembershipBody }),
  workspaceChecklist: route('GET', `${workspace}/checklist`, workspaceChecklist),
  // The shareable invite link: admins manage it; anyone signed in opens it and joins (decision 0045).
  inviteLink: route('GET', `${workspace}/invite-link`, inviteLinkResponse),
  createInviteLink: route('POST', `${workspace}/invite-link`, inviteLinkResponse, {
    body: createInviteLinkBody,
    status: [201],
  }),
  revokeInviteLink: route('DELETE', `${workspace}/invite-link`, okResponse),
  inviteLinkPreview: route('GET', '/api/invite-links/:token', inviteLinkPreview),
  joinByInviteLink: route('POST', '/api/invite-links/:token', createInstitutionResponse),

  // Channels and membership.
  channels: route('GET', channels, channelsResponse),
  createChannel: route('POST', channels, channelWithMembership, { body: createChannelBody, status: [201] }),
  joinedChannels: route('GET', `${channels}/joined`, joinedChannelsResponse),
  openDirectMessage: route('POST', `${channels}/direct_messages`, channelWithMembership, {
    body: directMessageBody,
  }),
  renameChannel: route('PUT', channel, channelResponse, { body: updateChannelBody }),
  deleteChannel: route('DELETE', channel, okResponse),
  // Workspace admins make a public channel default, so every member is in it (decision 0054).
  setChannelDefault: route('PUT', `${channel}/default`, channelResponse, { body: channelDefaultBody }),
  channelLookup: route('GET', `${channel}/lookup`, channelLookupResponse),
  joinChannel: route('POST', `${channel}/members`, channelWithMembership),
  leaveChannel: route('DELETE', `${channel}/members`, okResponse),
  channelMembers: route('GET', `${channel}/members`, channelMembersResponse, { query: channelMembersQuery }),
  addChannelMembers: route('POST', `${channel}/members/add`, channelMembersResponse, {
    body: channelMembersBody,
  }),
  removeChannelMembers: route('DELETE', `${channel}/members/remove`, okResponse, {
    body: channelMembersBody,
  }),
  updateMembership: route('PUT', `${channel}/members`, channelMemberResponse, { body: updateMembershipBody }),
  block: route('PUT', `${channel}/block`, channelMemberResponse),
  unblock: route('PUT', `${channel}/unblock`, channelMemberResponse),
  profileChannels: route('PUT', `${channels}/profile-channels`, profileChannelsResponse, {
    body: profileChannelsBody,
  }),
  channelRoles: route('GET', `${channel}/roles`, channelRolesResponse),
  createChannelRole: route('POST', `${channel}/roles`, channelRoleResponse, {
    body: createChannelRoleBody,
    status: [201],
  }),
  updateChannelRole: route('PUT', `${channel}/roles/:roleId`, channelRoleResponse, {
    body: updateChannelRoleBody,
  }),
  deleteChannelRole: route('DELETE', `${channel}/roles/:roleId`, okResponse),
  setRoleMembers: route('PUT', `${channel}/roles/:roleId/members`, roleMembersResponse, {
    body: roleMembersBody,
  }),
  transferOwnership: route('PUT', `${channel}/transfer-ownership`, roleMembersResponse, {
    body: transferOwnershipBody,
  }),
  myChannelRequests: route('GET', `${channels}/requests/mine`, channelRequestsResponse, {
    query: channelRequestsQuery,
  }),
  requestToJoin: route('POST', `${channel}/requests`, channelRequestResponse, {
    body: createChannelRequestBody,
    status: [201],
  }),
  channelRequests: route('GET', `${channel}/requests`, channelRequestsResponse, {
    query: channelRequestsQuery,
  }),
  decideChannelRequest: route('PUT', `${channel}/requests/:requestId`, channelRequestResponse, {
    body: updateChannelRequestBody,
  }),

  // The caller's sidebar sections and the workspace's groups.
  sections: route('GET', sections, sectionsResponse),
  createSection: route('POST', sections, sectionCreatedResponse, {
    body: createSectionBody,
    status: [200, 201],
  }),
  replaceSections: route('PUT', sections, sectionsResponse, { body: replaceSectionsBody }),
  reorderSections: route('PUT', `${sections}/reorder`, sectionsResponse, { body: reorderSectionsBody }),
  updateSection: route('PUT', `${sections}/:sectionId`, sectionsResponse, { body: updateSectionBody }),
  deleteSection: route('DELETE', `${sections}/:sectionId`, sectionsResponse),
  groups: route('GET', groups, groupsResponse),
  createGroup: route('POST', groups, groupResponse, { body: groupBody, status: [201] }),
  renameGroup: route('PUT', `${groups}/:groupId`, groupResponse, { body: groupBody }),
  deleteGroup: route('DELETE', `${groups}/:groupId`, groupResponse),
  groupEmails: route('PUT', `${groups}/:groupId/emails`, groupEmailsResponse, { body: groupEmailsBody }),

  // Messages, their lists, search and the activity feed.
  messages: route('GET', `${channel}/messages`, messagePage, { query: messagePageQuery }),
  messageChanges: route('GET', `${channel}/messages/changes`, changesResponse, { query: changesQuery }),
  /** One message of the channel (a deleted one as its tombstone): a reply's original older than the device holds. */
  message: route('GET', `${channel}/messages/:messageId`, message),
  workspaceChanges: route('POST', `${workspace}/messages/changes`, workspaceChangesResponse, {
    body: workspaceChangesBody,
  }),
  postMessage: route('POST', `${channel}/messages`, message, {
    body: postMessageRestBody,
    status: [200, 201],
  }),
  knownMessages: route('POST', `${workspace}/messages/known`, knownGenIdsResponse, { body: knownGenIdsBody }),
  pinnedMessages: route('GET', `${channel}/messages/pinned`, messageListResponse, {
    query: messageListQuery,
  }),
  starredMessages: route('GET', `${channel}/messages/starred`, messageListResponse, {
    query: messageListQuery,
  }),
  searchMessages: route('GET', `${workspace}/messages/search`, messageSearchResponse, {
    query: messageSearchQuery,
  }),
  activities: route('GET', `${workspace}/activities`, activitiesResponse, { query: activitiesQuery }),
  markActivitiesRead: route('PUT', `${workspace}/activities/read`, markActivitiesReadResponse, {
    body: markActivitiesReadBody,
  }),

  // Files.
  signUpload: route('GET', '/api/files/upload/sign', fileSignResponse, { query: fileSignQuery }),
  upload: route('PUT', '/api/files/upload/:fileKey', fileUploadResponse, {
    body: BYTES,
    query: uploadQuery,
    status: [201],
  }),
  registerFile: route('POST', '/api/files', fileResponse, { body: registerFileBody, status: [200, 201] }),
  updateFile: route('PUT', '/api/files/:id', fileResponse, { body: updateFileBody }),
  deleteFiles: route('DELETE', '/api/files', deleteFilesResponse, { body: deleteFilesBody }),
  files: route('GET', `${workspace}/files`, filesResponse, { query: filesQuery }),
  fileContent: route('GET', '/api/files/:id/content', BYTES),
  fileExcerpt: route('GET', '/api/files/:id/excerpt', fileExcerptResponse),

  // Link previews (decision 0053): a page's card, its picture served by us, and the workspace's switch.
  linkPreview: route('GET', `${workspace}/link-previews`, linkPreviewResponse, { query: linkPreviewQuery }),
  linkPreviewImage: route('GET', `${workspace}/link-previews/image`, BYTES, { query: linkPreviewQuery }),
  linkPreviewSetting: route('PUT', `${workspace}/link-preview-setting`, linkPreviewSettingResponse, {
    body: linkPreviewSettingBody,
  }),

  // Agents: settings, knowledge, tools, usage.
  agents: route('GET', `${workspace}/agents`, agentsResponse),
  createAgent: route('POST', `${workspace}/agents`, agentResponse, { body: createAgentBody, status: [201] }),
  updateAgent: route('PUT', agent, agentResponse, { body: updateAgentBody }),
  deleteAgent: route('DELETE', agent, deletedAgentResponse),
  knowledgeSources: route('GET', knowledge, knowledgeSourcesResponse),
  addKnowledgeSource: route('POST', knowledge, knowledgeSourceResponse, {
    body: createKnowledgeSourceBody,
    status: [201],
  }),
  uploadKnowledgeSource: route('POST', `${knowledge}/upload`, knowledgeSourceResponse, {
    body: BYTES,
    query: uploadKnowledgeSourceQuery,
    status: [201],
  }),
  deleteKnowledgeSource: route('DELETE', `${knowledge}/:sourceId`, deletedKnowledgeSourceResponse),
  mcpConnections: route('GET', mcp, mcpConnectionsResponse),
  createMcpConnection: route('POST', mcp, mcpConnectionResponse, { body: mcpConnectionBody, status: [201] }),
  updateMcpConnection: route('PUT', `${mcp}/:connId`, mcpConnectionResponse, { body: mcpConnectionBody }),
  deleteMcpConnection: route('DELETE', `${mcp}/:connId`, mcpConnectionResponse),
  testMcpConnection: route('POST', `${workspace}/mcp-connections/connect`, mcpConnectResponse, {
    body: mcpConnectBody,
  }),
  mcpTemplates: route('GET', `${workspace}/mcp-templates`, mcpTemplatesResponse),
  decideToolCall: route(
    'POST',
    `${channel}/messages/:messageId/tool-calls/:toolCallId/decision`,
    toolCallDecisionResponse,
    { body: toolCallDecisionBody },
  ),
  agentUsage: route('GET', `${workspace}/agents/usage`, agentUsageResponse, { query: agentUsageQuery }),
  agentRuns: route('GET', `${agent}/runs`, agentRunsResponse, { query: agentRunsQuery }),
  agentSettings: route('GET', `${workspace}/agent-settings`, agentSettingsResponse),
  updateAgentSettings: route('PUT', `${workspace}/agent-settings`, agentSettingsResponse, {
    body: agentSettingsBody,
  }),
  // Account deletion (/account-deletion) and handing a workspace's primary ownership over first.
  accountDeletionPreview: route('GET', '/api/users/account-deletion', accountDeletionPreview),
  deleteAccount: route('DELETE', '/api/users', accountDeletedResponse, {
    body: deleteAccountBody.optional(),
  }),
  accountDeletionCode: route('POST', '/api/auth/account-deletion/code', okResponse, {
    body: accountDeletionCodeBody,
  }),
  deleteAccountByCode: route('POST', '/api/auth/account-deletion', accountDeletedResponse, {
    body: deleteAccountByCodeBody,
  }),
  deletedMembers: route('GET', `${workspace}/deleted-members`, deletedMembersResponse),
  handOverWorkspace: route('PUT', `${workspace}/primary-owner`, okResponse, { body: handOverBody }),

  // LTI 1.3: a launch exchanged for a session, deep linking, and the platforms an admin registers.
  ltiLaunch: route('POST', '/api/lti/launch', ltiLaunchResponse, { body: ltiLaunchBody }),
  ltiDeepLink: route('POST', '/api/lti/deep-link', ltiDeepLinkResponse, { body: ltiDeepLinkBody }),
  ltiPlatforms: route('GET', `${workspace}/lti-platforms`, ltiPlatformsResponse),
  registerLtiPlatform: route('POST', `${workspace}/lti-platforms`, ltiPlatform, {
    body: ltiPlatformBody,
    status: [201],
  }),
  removeLtiPlatform: route('DELETE', `${workspace}/lti-platforms/:platformId`, okResponse),
  ltiRegistrationLink: route('POST', `${workspace}/lti-registration-links`, ltiRegistrationLinkResponse, {
    status: [201],
  }),
  // Workspace metrics (issue 14; schemas/protocol/metrics.ts): admins only.
  metricStats: route('GET', `${metric}/stats`, metricStatsResponse, { query: metricWindowQuery }),
  metricEngagingMessages: route('GET', `${metric}/engaging-messages`, engagingMessagesResponse, {
    query: engagingMessagesQuery,
  }),
  metricLatestChannels: route('GET', `${metric}/latest-channels`, latestChannelsResponse, {
    query: metricWindowQuery,
  }),
  metricGrowingChannels: route('GET', `${metric}/growing-channels`, growingChannelsResponse, {
    query: metricWindowQuery,
  }),
  metricMostVisitedChannels: route('GET', `${metric}/most-visited-channels`, mostVisitedChannelsResponse, {
    query: metricWindowQuery,
  }),
  metricMostVisitedGroups: route('GET', `${metric}/most-visited-groups`, mostVisitedGroupsResponse, {
    query: metricWindowQuery,
  }),
  metricMostVisitedMembers: route('GET', `${metric}/most-visited-members`, mostVisitedMembersResponse, {
    query: metricWindowQuery,
  }),
  metricChannelCreationTrend: route('GET', `${metric}/channel-creation-trend`, channelCreationTrendResponse, {
    query: channelCreationTrendQuery,
  }),
  metricHourlyActivityHeatmap: route(
    'GET',
    `${metric}/hourly-activity-heatmap`,
    hourlyActivityHeatmapResponse,
    { query: metricWindowQuery },
  ),
  metricSettings: route('GET', `${metric}/settings`, metricSettings),
  updateMetricSettings: route('PUT', `${metric}/settings`, metricSettings, { body: metricSettings }),
} as const satisfies Record<string, RestRoute>;

export type RestRouteName = keyof typeof restRoutes;
/** The parsed body of a route's successful answer. */
export type RouteResponse<N extends RestRouteName> = (typeof restRoutes)[N]['response'] extends z.ZodType
  ? z.infer<(typeof restRoutes)[N]['response']>
  : Blob;

/** Fills a route's `:name` segments: `routePath(restRoutes.renameChannel, { id, channelId })`. */
export function routePath(route: RestRoute, params: Record<string, string>): string {
  return route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.method} ${route.path} needs :${name}`);
    if (!isPathParam(value)) throw new Error(`${route.method} ${route.path}: :${name} cannot be "${value}"`);
    return encodeURIComponent(value);
  });
}

/**
 * The route a request reaches, as Fastify's router picks it: same method, same number of segments, and at
 * the first segment where two candidates differ a literal beats a `:param` (so `members/bulk` is not
 * `members/:memberId`). Undefined when no route matches. The query string is ignored.
 */
export function findRoute(method: string, url: string): (RestRoute & { name: RestRouteName }) | undefined {
  const pathname = url.split(/[?#]/)[0] ?? '';
  const segments = pathname.split('/');
  let best: (RestRoute & { name: RestRouteName }) | undefined;
  let bestPattern: string[] = [];
  for (const [name, candidate] of Object.entries(restRoutes) as [RestRouteName, RestRoute][]) {
    if (candidate.method !== method.toUpperCase()) continue;
    const pattern = candidate.path.split('/');
    if (pattern.length !== segments.length) continue;
    if (!pattern.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i])))
      continue;
    if (!best || moreSpecific(pattern, bestPattern)) {
      best = { ...candidate, name };
      bestPattern = pattern;
    }
  }
  return best;
}

function moreSpecific(a: string[], b: string[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const aParam = a[i]?.startsWith(':') ?? false;
    const bParam = b[i]?.startsWith(':') ?? false;
    if (aParam !== bParam) return bParam;
  }
  return false;
}
