// Workspace home on desktop (on phones the sidebar is the home): a calm welcome with the next steps.
import { BookUser, Hash, PenLine, Plus, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { usePageTitle } from '../app/title.ts';
import { useWorkspace } from '../app/workspace-context.ts';
import { BrowseChannelsDialog } from '../components/channels/browse-channels-dialog.tsx';
import { CreateChannelDialog } from '../components/channels/create-channel-dialog.tsx';
import { Avatar } from '../components/ui/avatar.tsx';
import { GettingStarted } from '../components/workspace/getting-started.tsx';
import { InviteDialog } from '../components/workspace/invite-dialog.tsx';
import { useChannels } from '../data/channels.ts';
import { useDrafts } from '../data/drafts.ts';

export function WorkspaceHomeScreen() {
  const { institution } = useWorkspace();
  usePageTitle(institution.name);
  const joined = useChannels(institution.id);
  const drafts = useDrafts(institution.id);
  const [dialog, setDialog] = useState<'create' | 'browse' | 'invite' | null>(null);
  const base = `/client/${institution.id}`;
  const general =
    joined?.channels.find((c) => c.isDefault) ?? joined?.channels.find((c) => c.type !== 'direct_message');

  const tile =
    'flex items-start gap-3 rounded-lg border border-line bg-surface p-4 text-left transition-colors hover:border-line-strong hover:bg-surface-2';
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <div className="mx-auto flex max-w-2xl flex-col gap-6 px-6 py-12">
        <div className="flex items-center gap-4">
          <Avatar id={institution.id} name={institution.name} size="lg" />
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">{institution.name}</h1>
            <p className="text-[13px] text-muted">Pick up where your team left off.</p>
          </div>
        </div>
        <GettingStarted onInvite={() => setDialog('invite')} onCreateChannel={() => setDialog('create')} />
        <div className="grid gap-3 sm:grid-cols-2">
          {general ? (
            <Link to={`${base}/channel/${general.id}`} className={tile}>
              <Hash className="mt-0.5 size-4 text-accent" aria-hidden />
              <span>
                <span className="block text-sm font-medium">Open #{general.name}</span>
                <span className="block text-[13px] text-muted">Where everyone in the workspace talks.</span>
              </span>
            </Link>
          ) : null}
          <button type="button" className={tile} onClick={() => setDialog('invite')}>
            <UserPlus className="mt-0.5 size-4 text-accent" aria-hidden />
            <span>
              <span className="block text-sm font-medium">Invite people</span>
              <span className="block text-[13px] text-muted">Bring your team in by e-mail.</span>
            </span>
          </button>
          <button type="button" className={tile} onClick={() => setDialog('create')}>
            <Plus className="mt-0.5 size-4 text-accent" aria-hidden />
            <span>
              <span className="block text-sm font-medium">Create a channel</span>
              <span className="block text-[13px] text-muted">One topic, one place.</span>
            </span>
          </button>
          <button type="button" className={tile} onClick={() => setDialog('browse')}>
            <Hash className="mt-0.5 size-4 text-accent" aria-hidden />
            <span>
              <span className="block text-sm font-medium">Browse channels</span>
              <span className="block text-[13px] text-muted">Join conversations already going on.</span>
            </span>
          </button>
          <Link to={`${base}/directory`} className={tile}>
            <BookUser className="mt-0.5 size-4 text-accent" aria-hidden />
            <span>
              <span className="block text-sm font-medium">Directory</span>
              <span className="block text-[13px] text-muted">Everyone in {institution.name}.</span>
            </span>
          </Link>
          {drafts && drafts.length > 0 ? (
            <Link to={`${base}/drafts`} className={tile}>
              <PenLine className="mt-0.5 size-4 text-accent" aria-hidden />
              <span>
                <span className="block text-sm font-medium">
                  {drafts.length} unsent {drafts.length === 1 ? 'draft' : 'drafts'}
                </span>
                <span className="block text-[13px] text-muted">Finish what you started.</span>
              </span>
            </Link>
          ) : null}
        </div>
      </div>
      <CreateChannelDialog
        institutionId={institution.id}
        open={dialog === 'create'}
        onOpenChange={(o) => setDialog(o ? 'create' : null)}
      />
      <BrowseChannelsDialog
        institutionId={institution.id}
        open={dialog === 'browse'}
        onOpenChange={(o) => setDialog(o ? 'browse' : null)}
      />
      <InviteDialog
        institutionId={institution.id}
        institutionName={institution.name}
        open={dialog === 'invite'}
        onOpenChange={(o) => setDialog(o ? 'invite' : null)}
      />
    </div>
  );
}
