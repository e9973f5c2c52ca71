// LTI roles, in full (http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor) or short (Instructor)
// form, mapped to a workspace role: course staff administer the course's workspace, everyone else is a
// member.
const STAFF = new Set(['Instructor', 'Administrator']);
const VOCAB = 'http://purl.imsglobal.org/vocab/lis/v2/';

/** The base role a role names: `Instructor` for the full, short and sub-role (`membership/Instructor#TeachingAssistant`) forms. */
export function baseRole(role: string): string | null {
  if (!role.includes('/')) return role;
  if (!role.startsWith(VOCAB)) return null;
  const rest = role.slice(VOCAB.length);
  // membership#Instructor, institution/person#Administrator, system/person#Administrator
  const hash = rest.indexOf('#');
  if (hash < 0) return null;
  const scope = rest.slice(0, hash);
  // A sub-role names its base role in the path: membership/Instructor#TeachingAssistant.
  if (scope.startsWith('membership/')) return scope.slice('membership/'.length);
  return rest.slice(hash + 1);
}

export function workspaceRoleOf(roles: readonly string[]): 'admin' | 'member' {
  return roles.some((r) => {
    const base = baseRole(r);
    return base !== null && STAFF.has(base);
  })
    ? 'admin'
    : 'member';
}
