// LTI roles as platforms send them (full URIs, short names, sub-roles, institution and system roles) and the
// workspace role each gives; and the roster's `Link: rel=next` as platforms write it.
import { describe, expect, it } from 'vitest';
import { baseRole, workspaceRoleOf } from '../../server/lti/roles.ts';
import { nextLink } from '../../server/lti/roster.ts';

const V = 'http://purl.imsglobal.org/vocab/lis/v2/';

describe('LTI roles', () => {
  it.each([
    [[`${V}membership#Instructor`], 'admin'],
    [['Instructor'], 'admin'],
    [[`${V}membership/Instructor#TeachingAssistant`], 'admin'],
    [[`${V}institution/person#Administrator`], 'admin'],
    [[`${V}system/person#Administrator`], 'admin'],
    [[`${V}membership#Learner`], 'member'],
    [['Learner', `${V}institution/person#Student`], 'member'],
    [[`${V}membership#Mentor`], 'member'],
    [[], 'member'],
    // A look-alike from another vocabulary is not staff.
    [['http://evil.example/vocab/lis/v2/membership#Instructor'], 'member'],
    [['urn:lti:role:ims/lis/Instructor'], 'member'],
  ] as const)('%j → %s', (roles, role) => {
    expect(workspaceRoleOf(roles)).toBe(role);
  });

  it('names the base role of each form', () => {
    expect(baseRole(`${V}membership#ContentDeveloper`)).toBe('ContentDeveloper');
    expect(baseRole(`${V}membership/Learner#NonCreditLearner`)).toBe('Learner');
    expect(baseRole('Learner')).toBe('Learner');
    expect(baseRole(`${V}membership`)).toBeNull();
  });
});

describe('roster paging links', () => {
  it('finds rel=next among other relations, quoted or not', () => {
    expect(nextLink('<https://lms.example/nrps?p=2>; rel="next"')).toBe('https://lms.example/nrps?p=2');
    expect(nextLink('<https://a/1>; rel="first", <https://a/3>; rel=next')).toBe('https://a/3');
    expect(nextLink('<https://a/1>; rel="prev"')).toBeNull();
    expect(nextLink(null)).toBeNull();
  });
});
