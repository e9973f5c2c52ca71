// Workspace settings → Default channels (spec §5–§6): the public channels, default ones first. Every
// member, present and future, is in a default channel and cannot leave it. Admins make one default (after
// a confirmation: everyone is added at once) or not (its members stay); the workspace's first channel,
// #general, stays default so everyone has one place in common (the server refuses it too).
import { Hash } from 'lucide-react';
import { useState } from 'react';
import type { Channel } from '../../../schemas/protocol/index.ts';
import { notifyError } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { setChannelDefault, usePublicChannels } from '../../data/workspace-settings.ts';
import { Spinner } from '../ui/states.tsx';
import { SwitchRow } from '../ui/switch.tsx';
import { CreateDefaultChannelForm } from './create-default-channel-form.tsx';
import { MakeDefaultDialog } from './make-default-dialog.tsx';

/** The workspace's first channel: created with it, so the oldest. */
function firstChannelId(channels: Channel[]): string | undefined {
  return [...channels].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))[0]
    ?.id;
}

function channelHint(channel: Channel, isFirst: boolean): string {
  if (isFirst) return 'Stays default, so everyone has one place in common.';
  return channel.isDefault
    ? 'Everyone is in it, and everyone who joins later.'
    : 'Only the people who joined it.';
}

export function DefaultChannelsSection() {
  const { institution, membersById } = useWorkspace();
  const channels = usePublicChannels(institution.id);
  const [confirming, setConfirming] = useState<Channel | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const list = channels.data ?? [];
  const firstId = firstChannelId(list);
  const ordered = [...list].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
  const defaults = list.filter((c) => c.isDefault).length;
  const people = [...membersById.values()].filter((m) => m.kind !== 'agent').length;

  async function stopDefault(channel: Channel) {
    setBusy(channel.id);
    try {
      await setChannelDefault(institution.id, channel.id, false);
      toast.success(`#${channel.name} is no longer a default channel. Its members stay.`);
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(null);
    }
  }

  return (
    <section aria-labelledby="default-channels-title">
      <div className="mb-1 flex items-end justify-between gap-2">
        <h2 id="default-channels-title" className="text-xs font-semibold tracking-wide text-muted uppercase">
          Default channels
        </h2>
        {channels.data ? (
          <span className="text-xs text-muted">{defaults === 1 ? '1 default' : `${defaults} default`}</span>
        ) : null}
      </div>
      <p className="mb-2 text-[13px] text-muted">
        Everyone in the workspace is in its default channels, including people who join later. Only public
        channels can be default.
      </p>
      <div className="rounded-lg border border-line bg-surface">
        {channels.data === undefined && channels.loading ? <Spinner label="Loading channels" /> : null}
        {channels.error && channels.data === undefined ? (
          <p className="px-4 py-3 text-[13px] text-muted">{channels.error}</p>
        ) : null}
        <ul className="divide-y divide-line">
          {ordered.map((channel) => (
            <li key={channel.id} className="flex items-center gap-3 px-4" aria-label={`#${channel.name}`}>
              <Hash className="size-4 shrink-0 text-muted" aria-hidden />
              <div className="min-w-0 flex-1">
                <SwitchRow
                  label={channel.name}
                  description={channelHint(channel, channel.id === firstId)}
                  checked={channel.isDefault}
                  disabled={channel.id === firstId || busy === channel.id}
                  onCheckedChange={(on) => (on ? setConfirming(channel) : void stopDefault(channel))}
                />
              </div>
            </li>
          ))}
        </ul>
        <CreateDefaultChannelForm institutionId={institution.id} />
      </div>
      <MakeDefaultDialog
        institutionId={institution.id}
        channel={confirming}
        people={people}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
      />
    </section>
  );
}
