// Where a sign-in goes on to: the redirect query value, if it is a path of this site.

/** Only same-origin paths are followed, so a crafted link cannot send someone elsewhere after sign-in. */
export function safeRedirect(value: string | null): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  return value;
}
