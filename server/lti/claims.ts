// The claim names of LTI 1.3 (Core, Deep Linking 2.0, Names and Role Provisioning 2.0).
const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
export const CLAIM = {
  messageType: `${LTI}message_type`,
  version: `${LTI}version`,
  deploymentId: `${LTI}deployment_id`,
  roles: `${LTI}roles`,
  context: `${LTI}context`,
  resourceLink: `${LTI}resource_link`,
  targetLinkUri: `${LTI}target_link_uri`,
  custom: `${LTI}custom`,
  deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
  deepLinkingData: 'https://purl.imsglobal.org/spec/lti-dl/claim/data',
  contentItems: 'https://purl.imsglobal.org/spec/lti-dl/claim/content_items',
  namesRoleService: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
} as const;

export const MESSAGE_TYPES = ['LtiResourceLinkRequest', 'LtiDeepLinkingRequest'] as const;
export const NRPS_SCOPE = 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly';
/** Custom parameter a deep-linked placement carries: the channel the instructor chose. */
export const CHANNEL_PARAMETER = 'lantern_channel_id';
