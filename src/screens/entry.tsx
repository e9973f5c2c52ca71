// '/' (spec §2): to the selected workspace and its last channel, else the first workspace, else /join.
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { lastChannelOf } from '../app/last-channel.ts';
import { Spinner } from '../components/ui/states.tsx';
import { refreshInstitutions, useInstitutions, useSelectedInstitutionId } from '../data/workspaces.ts';

export function workspacePath(institutionId: string): string {
  const channelId = lastChannelOf(institutionId);
  return channelId ? `/client/${institutionId}/channel/${channelId}` : `/client/${institutionId}`;
}

export function EntryScreen() {
  const institutions = useInstitutions();
  const selected = useSelectedInstitutionId();
  // With nothing stored yet (first sign-in on this device), ask the server before choosing /join.
  const [asked, setAsked] = useState(false);
  const empty = institutions !== undefined && institutions.length === 0;
  useEffect(() => {
    if (!empty) return;
    refreshInstitutions()
      .catch(() => {})
      .finally(() => setAsked(true));
  }, [empty]);

  if (institutions === undefined || selected === undefined) return <Spinner className="h-full" />;
  const target = institutions.find((i) => i.id === selected) ?? institutions[0];
  if (target) return <Navigate to={workspacePath(target.id)} replace />;
  if (!asked) return <Spinner className="h-full" />;
  return <Navigate to="/join" replace />;
}

/** /client/directory|profile|drafts → the selected workspace's page, or '/' without one. */
export function ShortPathRedirect({ page }: { page: 'directory' | 'profile' | 'drafts' }) {
  const selected = useSelectedInstitutionId();
  if (selected === undefined) return <Spinner className="h-full" />;
  return <Navigate to={selected ? `/client/${selected}/${page}` : '/'} replace />;
}
