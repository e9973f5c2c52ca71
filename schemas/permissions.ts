// Spec §6 in one pure module, shared by the server (which enforces it) and the client (which shows only
// what a person may do, offline too): channel permissions from channel roles, workspace permissions
// from the workspace role.
import type { ChannelRole, ChannelType, WorkspaceRole } from './protocol/index.ts';

/** The five permission flags a channel role carries, in the order the spec lists them. */
export const CHANNEL_PERMISSION_FLAGS = [
  'canPinMessage',
  'canPost',
  'canTag',
  'canAddMembers',
  'canDeleteMessage',
] as const;
export type ChannelPermissionFlag = (typeof CHANNEL_PERMISSION_FLAGS)[number];

export type ChannelPermissions = Record<ChannelPermissionFlag, boolean> & {
  /** Rename, delete, edit roles, remove members, answer join requests: ownership roles only. */
  canManage: boolean;
};

/** What a role needs for evaluation: its flags and whether it is an ownership role. */
export type RoleFlags = Pick<ChannelRole, ChannelPermissionFlag | 'isOwnershipRole'>;

export interface ChannelPermissionInput {
  channel: { type: ChannelType; defaultRole: RoleFlags | null };
  /** The roles the member holds in this channel (the default role need not be among them). */
  memberRoles: readonly RoleFlags[];
}

const NONE: ChannelPermissions = {
  canPinMessage: false,
  canPost: false,
  canTag: false,
  canAddMembers: false,
  canDeleteMessage: false,
  canManage: false,
};

/**
 * Each permission is the OR over the member's roles and the channel's default role; an ownership role
 * grants all of them and is the only source of canManage. A direct message ignores roles: both people
 * may pin and post, nobody may tag, delete others' messages, add members or manage it.
 */
export function channelPermissions({ channel, memberRoles }: ChannelPermissionInput): ChannelPermissions {
  if (channel.type === 'direct_message') {
    return { ...NONE, canPinMessage: true, canPost: true };
  }
  const roles = channel.defaultRole ? [channel.defaultRole, ...memberRoles] : memberRoles;
  const result = { ...NONE };
  for (const role of roles) {
    if (role.isOwnershipRole) {
      for (const flag of CHANNEL_PERMISSION_FLAGS) result[flag] = true;
      result.canManage = true;
      continue;
    }
    for (const flag of CHANNEL_PERMISSION_FLAGS) result[flag] ||= role[flag];
  }
  return result;
}

export interface WorkspacePermissions {
  canManageGroups: boolean;
  canCreateDefaultChannels: boolean;
  canViewMetrics: boolean;
}

const WORKSPACE_ADMIN_ROLES: ReadonlySet<WorkspaceRole> = new Set(['primary_owner', 'owner', 'admin']);

/** primary_owner, owner and admin are the workspace's administrators. */
export const isWorkspaceAdminRole = (role: WorkspaceRole): boolean => WORKSPACE_ADMIN_ROLES.has(role);

/** Spec §5–§6: only primary_owner, owner and admin manage groups, create default channels, view metrics. */
export function workspacePermissions(role: WorkspaceRole): WorkspacePermissions {
  const admin = isWorkspaceAdminRole(role);
  return { canManageGroups: admin, canCreateDefaultChannels: admin, canViewMetrics: admin };
}
