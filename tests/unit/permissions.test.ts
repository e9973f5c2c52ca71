// Spec §6 checked exhaustively: every flag combination of a member role and of the channel's default role,
// with and without ownership, in every channel type, against an oracle written as a table of rules.
import { describe, expect, it } from 'vitest';
import {
  CHANNEL_PERMISSION_FLAGS,
  type ChannelPermissions,
  channelPermissions,
  type RoleFlags,
  workspacePermissions,
} from '../../schemas/permissions.ts';
import type { ChannelType, WorkspaceRole } from '../../schemas/protocol/index.ts';

// ── the oracle: permissions as bit masks, so it shares no code path with the module under test ──
const BIT = { pin: 1, post: 2, tag: 4, add: 8, delete: 16 } as const;
const ALL = 0b11111;

/** Spec §6 as rules over masks. */
const RULES: Record<ChannelType, (defaultMask: number, roleMasks: number[], owner: boolean) => number> = {
  // Everyone may pin and post; nobody may tag, delete, add or manage, whatever their roles say.
  direct_message: () => BIT.pin | BIT.post,
  // The OR of the default role and the member's roles; an ownership role grants everything.
  public: (d, rs, owner) => (owner ? ALL : rs.reduce((acc, r) => acc | r, d)),
  private: (d, rs, owner) => (owner ? ALL : rs.reduce((acc, r) => acc | r, d)),
};
const MANAGE_RULE: Record<ChannelType, (owner: boolean) => boolean> = {
  direct_message: () => false,
  public: (owner) => owner,
  private: (owner) => owner,
};

function role(mask: number, isOwnershipRole = false): RoleFlags {
  return {
    isOwnershipRole,
    canPinMessage: (mask & BIT.pin) !== 0,
    canPost: (mask & BIT.post) !== 0,
    canTag: (mask & BIT.tag) !== 0,
    canAddMembers: (mask & BIT.add) !== 0,
    canDeleteMessage: (mask & BIT.delete) !== 0,
  };
}

function expected(type: ChannelType, defaultMask: number, roleMasks: number[], owner: boolean) {
  const mask = RULES[type](defaultMask, roleMasks, owner);
  return {
    canPinMessage: (mask & BIT.pin) !== 0,
    canPost: (mask & BIT.post) !== 0,
    canTag: (mask & BIT.tag) !== 0,
    canAddMembers: (mask & BIT.add) !== 0,
    canDeleteMessage: (mask & BIT.delete) !== 0,
    canManage: MANAGE_RULE[type](owner),
  } satisfies ChannelPermissions;
}

const TYPES: ChannelType[] = ['public', 'private', 'direct_message'];
const MASKS = Array.from({ length: 32 }, (_, i) => i);

describe('channel permissions', () => {
  it('match the rules for every combination of member role, default role, ownership and channel type', () => {
    let checked = 0;
    const mismatches: string[] = [];
    for (const type of TYPES)
      for (const defaultMask of MASKS)
        for (const roleMask of MASKS)
          for (const owner of [false, true]) {
            const actual = channelPermissions({
              channel: { type, defaultRole: role(defaultMask) },
              memberRoles: [role(roleMask, owner)],
            });
            const want = expected(type, defaultMask, [roleMask], owner);
            if (JSON.stringify(actual) !== JSON.stringify(want))
              mismatches.push(`${type} default=${defaultMask} role=${roleMask} owner=${owner}`);
            checked += 1;
          }
    expect(mismatches).toEqual([]);
    expect(checked).toBe(3 * 32 * 32 * 2);
  });

  it('OR the flags of two roles held at once, for every pair of flag sets', () => {
    for (const type of TYPES)
      for (const a of MASKS)
        for (const b of MASKS) {
          const actual = channelPermissions({
            channel: { type, defaultRole: role(0) },
            memberRoles: [role(a), role(b)],
          });
          expect(actual).toEqual(expected(type, 0, [a, b], false));
        }
  });

  it('fall back to the default role alone for a member with no roles, and to nothing without one', () => {
    for (const type of TYPES)
      for (const d of MASKS) {
        expect(channelPermissions({ channel: { type, defaultRole: role(d) }, memberRoles: [] })).toEqual(
          expected(type, d, [], false),
        );
      }
    expect(channelPermissions({ channel: { type: 'public', defaultRole: null }, memberRoles: [] })).toEqual({
      canPinMessage: false,
      canPost: false,
      canTag: false,
      canAddMembers: false,
      canDeleteMessage: false,
      canManage: false,
    });
  });

  it('give an ownership role every permission even when its own flags are all off', () => {
    const p = channelPermissions({
      channel: { type: 'private', defaultRole: role(0) },
      memberRoles: [role(0, true)],
    });
    for (const flag of CHANNEL_PERMISSION_FLAGS) expect(p[flag]).toBe(true);
    expect(p.canManage).toBe(true);
  });

  it('never let anyone without an ownership role manage, even with every flag on', () => {
    const p = channelPermissions({
      channel: { type: 'public', defaultRole: role(ALL) },
      memberRoles: [role(ALL)],
    });
    expect(p.canManage).toBe(false);
  });

  it('in a direct message let both people pin and post but never tag or delete, even as owner', () => {
    expect(
      channelPermissions({
        channel: { type: 'direct_message', defaultRole: role(0) },
        memberRoles: [role(ALL, true)],
      }),
    ).toEqual({
      canPinMessage: true,
      canPost: true,
      canTag: false,
      canAddMembers: false,
      canDeleteMessage: false,
      canManage: false,
    });
  });
});

describe('workspace permissions', () => {
  const TABLE: [WorkspaceRole, boolean][] = [
    ['primary_owner', true],
    ['owner', true],
    ['admin', true],
    ['member', false],
    ['guest', false],
  ];
  it.each(TABLE)('%s may manage groups, create default channels and view metrics: %s', (r, allowed) => {
    expect(workspacePermissions(r)).toEqual({
      canManageGroups: allowed,
      canCreateDefaultChannels: allowed,
      canViewMetrics: allowed,
    });
  });
});
