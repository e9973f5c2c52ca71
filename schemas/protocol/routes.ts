// Every REST route the server registers: its method, its path pattern as registered, and the schema of a
// successful answer. Tests parse every answer with it; the client parses its answers with it instead of
// casting. A route the server adds without an entry here fails the server tests (tests/server/harness.ts).
import type { z } from 'zod';
import { accountDeletedResponse, accountDeletionPreview, deletedMembersResponse } from './account.ts';
import { activitiesResponse, markActivitiesReadResponse } from './activities.ts';
import { agentRunsResponse, agentSettingsResponse, agentUsageResponse } from './agent-usage.ts';
import {
  agentResponse,
  agentsResponse,
  deletedAgentResponse,
  deletedKnowledgeSourceResponse,
  knowledgeSourceResponse,
  knowledgeSourcesResponse,
  toolCallDecisionResponse,
} from './agents.ts';
import {
  channelMemberResponse,
  channelMembersResponse,
  channelRequestResponse,
  channelRequestsResponse,
  channelRoleResponse,
  channelRolesResponse,
  profileChannelsResponse,
  roleMembersResponse,
} from './channel-members.ts';
import {
  channelResponse,
  channelsResponse,
  channelWithMembership,
  joinedChannelsResponse,
} from './channels.ts';
import { okResponse } from './errors.ts';
import {
  deleteFilesResponse,
  fileResponse,
  fileSignResponse,
  filesResponse,
  fileUploadResponse,
} from './files.ts';
import { groupEmailsResponse, groupResponse, groupsResponse } from './groups.ts';
import { identityProvidersResponse, providerSigninResponse, signinMethodsResponse } from './identity.ts';
import {
  createInstitutionResponse,
  institutionsResponse,
  institutionWithMember,
  invitationsResponse,
  inviteMembersResponse,
  membersResponse,
  myInvitationsResponse,
} from './institutions.ts';
import {
  ltiDeepLinkResponse,
  ltiLaunchResponse,
  ltiPlatform,
  ltiPlatformsResponse,
  ltiRegistrationLinkResponse,
} from './lti.ts';
import {
  mcpConnectionResponse,
  mcpConnectionsResponse,
  mcpConnectResponse,
  mcpTemplatesResponse,
} from './mcp.ts';
import { bulkUpdateMembersResponse, memberProfile, memberResponse } from './members.ts';
import {
  changesResponse,
  knownGenIdsResponse,
  message,
  messageListResponse,
  messagePage,
  workspaceChangesResponse,
} from './messages.ts';
import {
  channelCreationTrendResponse,
  engagingMessagesResponse,
  growingChannelsResponse,
  hourlyActivityHeatmapResponse,
  latestChannelsResponse,
  metricSettings,
  metricStatsResponse,
  mostVisitedChannelsResponse,
  mostVisitedGroupsResponse,
  mostVisitedMembersResponse,
} from './metrics.ts';
import { channelPushLevelResponse, pushConfigResponse, pushSettingsResponse } from './push.ts';
import { messageSearchResponse } from './search.ts';
import { sectionCreatedResponse, sectionsResponse } from './sections.ts';
import { revokeOtherSessionsResponse, userSessionsResponse } from './sessions.ts';
import { signinResponse, user } from './users.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A route whose answer is not JSON: the bytes of a file (or a redirect to where they are). */
export const BYTES = 'bytes';

export interface RestRoute {
  method: HttpMethod;
  /** As registered with Fastify: `:name` is one path segment. */
  path: string;
  /** The body of a 2xx answer; errors answer with errorBody. */
  response: z.ZodType | typeof BYTES;
}

const route = <M extends HttpMethod, P extends string, R extends z.ZodType | typeof BYTES>(
  method: M,
  path: P,
  response: R,
) => ({ method, path, response });

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
  // Sign-in and the signed-in user.
  signinCode: route('GET', '/api/auth/signin_otp', okResponse),
  signin: route('POST', '/api/auth/signin', signinResponse),
  me: route('GET', '/api/users', user),
  updateMe: route('PUT', '/api/users', user),
  logout: route('PUT', '/api/users/logout', okResponse),
  sessions: route('GET', '/api/users/sessions', userSessionsResponse),
  revokeSession: route('DELETE', '/api/users/sessions/:sessionId', okResponse),
  revokeOtherSessions: route('POST', '/api/users/sessions/revoke-others', revokeOtherSessionsResponse),
  pingSession: route('PUT', '/api/users/sessions/ping', okResponse),
  // Web Push (decision 0032): the key to subscribe with, this session's subscription, DND, channel levels.
  pushConfig: route('GET', '/api/push/config', pushConfigResponse),
  savePushToken: route('PUT', '/api/users/sessions/fcm-token', okResponse),
  deletePushToken: route('DELETE', '/api/users/sessions/fcm-token', okResponse),
  pushSettings: route('PUT', '/api/users/push-settings', pushSettingsResponse),
  channelPushLevel: route(
    'PUT',
    '/api/institutions/:id/channels/:channelId/push-level',
    channelPushLevelResponse,
  ),

  // Sign-in through identity providers (the popup's start and callback pages are not JSON).
  identityProviders: route('GET', '/api/auth/providers', identityProvidersResponse),
  providerStart: route('GET', '/api/auth/provider/:providerId/start', BYTES),
  providerCallback: route('GET', '/api/auth/provider/callback', BYTES),
  providerCallbackPost: route('POST', '/api/auth/provider/callback', BYTES),
  providerSignin: route('POST', '/api/auth/signin/provider', providerSigninResponse),
  providerConfirm: route('POST', '/api/auth/signin/provider/confirm', signinResponse),
  signinMethods: route('GET', '/api/users/signin-methods', signinMethodsResponse),
  unlinkSigninMethod: route('DELETE', '/api/users/signin-methods/:identityId', okResponse),

  // Workspaces, their members and invitations.
  workspaces: route('GET', '/api/institutions', institutionsResponse),
  createWorkspace: route('POST', '/api/institutions', createInstitutionResponse),
  myInvitations: route('GET', '/api/institutions/invited', myInvitationsResponse),
  declineInvitation: route('DELETE', '/api/institutions/invited/:invitationId', okResponse),
  renameWorkspace: route('PUT', workspace, institutionWithMember),
  members: route('GET', members, membersResponse),
  acceptInvitation: route('POST', members, createInstitutionResponse),
  invitations: route('GET', `${workspace}/invited-members`, invitationsResponse),
  invite: route('POST', `${workspace}/invited-members`, inviteMembersResponse),
  revokeInvitations: route('DELETE', `${workspace}/invited-members`, invitationsResponse),
  updateMembers: route('PUT', `${members}/bulk`, bulkUpdateMembersResponse),
  leaveWorkspace: route('DELETE', `${members}/me`, okResponse),
  memberProfile: route('GET', `${members}/:memberId`, memberProfile),
  updateMember: route('PUT', `${members}/:memberId`, memberResponse),

  // Channels and membership.
  channels: route('GET', channels, channelsResponse),
  createChannel: route('POST', channels, channelWithMembership),
  joinedChannels: route('GET', `${channels}/joined`, joinedChannelsResponse),
  openDirectMessage: route('POST', `${channels}/direct_messages`, channelWithMembership),
  renameChannel: route('PUT', channel, channelResponse),
  deleteChannel: route('DELETE', channel, okResponse),
  joinChannel: route('POST', `${channel}/members`, channelWithMembership),
  leaveChannel: route('DELETE', `${channel}/members`, okResponse),
  channelMembers: route('GET', `${channel}/members`, channelMembersResponse),
  addChannelMembers: route('POST', `${channel}/members/add`, channelMembersResponse),
  removeChannelMembers: route('DELETE', `${channel}/members/remove`, okResponse),
  updateMembership: route('PUT', `${channel}/members`, channelMemberResponse),
  block: route('PUT', `${channel}/block`, channelMemberResponse),
  unblock: route('PUT', `${channel}/unblock`, channelMemberResponse),
  profileChannels: route('PUT', `${channels}/profile-channels`, profileChannelsResponse),
  channelRoles: route('GET', `${channel}/roles`, channelRolesResponse),
  createChannelRole: route('POST', `${channel}/roles`, channelRoleResponse),
  updateChannelRole: route('PUT', `${channel}/roles/:roleId`, channelRoleResponse),
  deleteChannelRole: route('DELETE', `${channel}/roles/:roleId`, okResponse),
  setRoleMembers: route('PUT', `${channel}/roles/:roleId/members`, roleMembersResponse),
  transferOwnership: route('PUT', `${channel}/transfer-ownership`, roleMembersResponse),
  myChannelRequests: route('GET', `${channels}/requests/mine`, channelRequestsResponse),
  requestToJoin: route('POST', `${channel}/requests`, channelRequestResponse),
  channelRequests: route('GET', `${channel}/requests`, channelRequestsResponse),
  decideChannelRequest: route('PUT', `${channel}/requests/:requestId`, channelRequestResponse),

  // The caller's sidebar sections and the workspace's groups.
  sections: route('GET', sections, sectionsResponse),
  createSection: route('POST', sections, sectionCreatedResponse),
  replaceSections: route('PUT', sections, sectionsResponse),
  reorderSections: route('PUT', `${sections}/reorder`, sectionsResponse),
  updateSection: route('PUT', `${sections}/:sectionId`, sectionsResponse),
  deleteSection: route('DELETE', `${sections}/:sectionId`, sectionsResponse),
  groups: route('GET', groups, groupsResponse),
  createGroup: route('POST', groups, groupResponse),
  renameGroup: route('PUT', `${groups}/:groupId`, groupResponse),
  deleteGroup: route('DELETE', `${groups}/:groupId`, groupResponse),
  groupEmails: route('PUT', `${groups}/:groupId/emails`, groupEmailsResponse),

  // Messages, their lists, search and the activity feed.
  messages: route('GET', `${channel}/messages`, messagePage),
  messageChanges: route('GET', `${channel}/messages/changes`, changesResponse),
  workspaceChanges: route('POST', `${workspace}/messages/changes`, workspaceChangesResponse),
  postMessage: route('POST', `${channel}/messages`, message),
  knownMessages: route('POST', `${workspace}/messages/known`, knownGenIdsResponse),
  pinnedMessages: route('GET', `${channel}/messages/pinned`, messageListResponse),
  starredMessages: route('GET', `${channel}/messages/starred`, messageListResponse),
  searchMessages: route('GET', `${workspace}/messages/search`, messageSearchResponse),
  activities: route('GET', `${workspace}/activities`, activitiesResponse),
  markActivitiesRead: route('PUT', `${workspace}/activities/read`, markActivitiesReadResponse),

  // Files.
  signUpload: route('GET', '/api/files/upload/sign', fileSignResponse),
  upload: route('PUT', '/api/files/upload/:fileKey', fileUploadResponse),
  registerFile: route('POST', '/api/files', fileResponse),
  updateFile: route('PUT', '/api/files/:id', fileResponse),
  deleteFiles: route('DELETE', '/api/files', deleteFilesResponse),
  files: route('GET', `${workspace}/files`, filesResponse),
  fileContent: route('GET', '/api/files/:id/content', BYTES),

  // Agents: settings, knowledge, tools, usage.
  agents: route('GET', `${workspace}/agents`, agentsResponse),
  createAgent: route('POST', `${workspace}/agents`, agentResponse),
  updateAgent: route('PUT', agent, agentResponse),
  deleteAgent: route('DELETE', agent, deletedAgentResponse),
  knowledgeSources: route('GET', knowledge, knowledgeSourcesResponse),
  addKnowledgeSource: route('POST', knowledge, knowledgeSourceResponse),
  uploadKnowledgeSource: route('POST', `${knowledge}/upload`, knowledgeSourceResponse),
  deleteKnowledgeSource: route('DELETE', `${knowledge}/:sourceId`, deletedKnowledgeSourceResponse),
  mcpConnections: route('GET', mcp, mcpConnectionsResponse),
  createMcpConnection: route('POST', mcp, mcpConnectionResponse),
  updateMcpConnection: route('PUT', `${mcp}/:connId`, mcpConnectionResponse),
  deleteMcpConnection: route('DELETE', `${mcp}/:connId`, mcpConnectionResponse),
  testMcpConnection: route('POST', `${workspace}/mcp-connections/connect`, mcpConnectResponse),
  mcpTemplates: route('GET', `${workspace}/mcp-templates`, mcpTemplatesResponse),
  decideToolCall: route(
    'POST',
    `${channel}/messages/:messageId/tool-calls/:toolCallId/decision`,
    toolCallDecisionResponse,
  ),
  agentUsage: route('GET', `${workspace}/agents/usage`, agentUsageResponse),
  agentRuns: route('GET', `${agent}/runs`, agentRunsResponse),
  agentSettings: route('GET', `${workspace}/agent-settings`, agentSettingsResponse),
  updateAgentSettings: route('PUT', `${workspace}/agent-settings`, agentSettingsResponse),
  // Account deletion (/account-deletion) and handing a workspace's primary ownership over first.
  accountDeletionPreview: route('GET', '/api/users/account-deletion', accountDeletionPreview),
  deleteAccount: route('DELETE', '/api/users', accountDeletedResponse),
  accountDeletionCode: route('POST', '/api/auth/account-deletion/code', okResponse),
  deleteAccountByCode: route('POST', '/api/auth/account-deletion', accountDeletedResponse),
  deletedMembers: route('GET', `${workspace}/deleted-members`, deletedMembersResponse),
  handOverWorkspace: route('PUT', `${workspace}/primary-owner`, okResponse),

  // LTI 1.3: a launch exchanged for a session, deep linking, and the platforms an admin registers.
  ltiLaunch: route('POST', '/api/lti/launch', ltiLaunchResponse),
  ltiDeepLink: route('POST', '/api/lti/deep-link', ltiDeepLinkResponse),
  ltiPlatforms: route('GET', `${workspace}/lti-platforms`, ltiPlatformsResponse),
  registerLtiPlatform: route('POST', `${workspace}/lti-platforms`, ltiPlatform),
  removeLtiPlatform: route('DELETE', `${workspace}/lti-platforms/:platformId`, okResponse),
  ltiRegistrationLink: route('POST', `${workspace}/lti-registration-links`, ltiRegistrationLinkResponse),
  // Workspace metrics (issue 14; schemas/protocol/metrics.ts): admins only.
  metricStats: route('GET', `${metric}/stats`, metricStatsResponse),
  metricEngagingMessages: route('GET', `${metric}/engaging-messages`, engagingMessagesResponse),
  metricLatestChannels: route('GET', `${metric}/latest-channels`, latestChannelsResponse),
  metricGrowingChannels: route('GET', `${metric}/growing-channels`, growingChannelsResponse),
  metricMostVisitedChannels: route('GET', `${metric}/most-visited-channels`, mostVisitedChannelsResponse),
  metricMostVisitedGroups: route('GET', `${metric}/most-visited-groups`, mostVisitedGroupsResponse),
  metricMostVisitedMembers: route('GET', `${metric}/most-visited-members`, mostVisitedMembersResponse),
  metricChannelCreationTrend: route('GET', `${metric}/channel-creation-trend`, channelCreationTrendResponse),
  metricHourlyActivityHeatmap: route(
    'GET',
    `${metric}/hourly-activity-heatmap`,
    hourlyActivityHeatmapResponse,
  ),
  metricSettings: route('GET', `${metric}/settings`, metricSettings),
  updateMetricSettings: route('PUT', `${metric}/settings`, metricSettings),
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
