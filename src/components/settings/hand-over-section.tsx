// Settings → Hand over this workspace: the primary owner makes an owner or admin the primary owner (and
// becomes an owner). Shown only to the primary owner; it is what they must do before deleting their
// account (/account-deletion links here).
import { Crown } from 'lucide-react';
import { useState } from 'react';
import { notifyError } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { handOverWorkspace } from '../../data/account.ts';
import { Button } from '../ui/button.tsx';
import { Select } from '../ui/select.tsx';

export function HandOverSection() {
  const { institution, me, membersById } = useWorkspace();
  const [choice, setChoice] = useState('');
  const [busy, setBusy] = useState(false);
  if (me.role !== 'primary_owner') return null;
  const candidates = [...membersById.values()]
    .filter((m) => m.kind !== 'agent' && m.id !== me.id && (m.role === 'owner' || m.role === 'admin'))
    .sort((a, b) => (a.name || a.email).localeCompare(b.name || b.email));
  const chosen = candidates.find((m) => m.id === choice);

  async function handOver() {
    if (!chosen) return;
    setBusy(true);
    try {
      await handOverWorkspace(institution.id, chosen.id);
      toast.success(`${chosen.name || chosen.email} is now the primary owner of ${institution.name}.`);
      setChoice('');
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-label="Primary owner">
      <h2 className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">Primary owner</h2>
      <div className="flex flex-col gap-3 rounded-lg border border-line bg-surface px-4 py-3">
        <div className="flex items-start gap-3">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-accent-soft text-accent-fg">
            <Crown className="size-4" aria-hidden />
          </span>
          <p className="text-[13px] text-muted">
            You are the primary owner of {institution.name}. Hand it over to another owner or admin to leave
            it or to delete your account; you stay an owner.
          </p>
        </div>
        {candidates.length === 0 ? (
          <p className="text-[13px] text-muted">
            Nobody else is an owner or admin yet: give someone the admin role in the directory first.
          </p>
        ) : (
          <div className="flex flex-wrap items-center gap-2">
            <Select
              value={choice}
              onValueChange={setChoice}
              label="New primary owner"
              placeholder="Choose an owner or admin…"
              options={candidates.map((m) => ({ value: m.id, label: `${m.name || m.email} (${m.role})` }))}
              className="h-8 flex-1"
            />
            <Button size="sm" variant="outline" disabled={!chosen} loading={busy} onClick={handOver}>
              Hand over
            </Button>
          </div>
        )}
      </div>
    </section>
  );
}
