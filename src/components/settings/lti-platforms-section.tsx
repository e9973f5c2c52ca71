// Settings → Learning platforms (workspace admins): the Moodle or Canvas sites whose courses open Lantern
// by LTI 1.3. It shows the tool's addresses to paste into the platform, lists the registered platforms
// with each one's login initiation address, and registers a new one from the values the platform shows.

import { Copy, GraduationCap, Link2, Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { plainIssue } from '../../../schemas/plain-error.ts';
import type { LtiPlatformBody } from '../../../schemas/protocol/index.ts';
import { ltiPlatformBody } from '../../../schemas/protocol/index.ts';
import { errorMessage, notifyError } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import {
  createRegistrationLink,
  registerLtiPlatform,
  removeLtiPlatform,
  useLtiPlatforms,
} from '../../data/lti-platforms.ts';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { FieldMessage, Input, Label } from '../ui/input.tsx';
import { Spinner } from '../ui/states.tsx';

function CopyRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-center gap-2 py-1.5">
      <span className="w-28 shrink-0 text-[13px] text-muted">{label}</span>
      <code
        className="min-w-0 flex-1 truncate rounded bg-surface-2 px-2 py-1 font-mono text-xs"
        title={value}
      >
        {value}
      </code>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Copy ${label.toLowerCase()}`}
        onClick={() =>
          void navigator.clipboard.writeText(value).then(
            () => toast.success('Copied'),
            () => toast.error('Copy failed'),
          )
        }
      >
        <Copy aria-hidden />
      </Button>
    </div>
  );
}

const FIELDS: { key: Exclude<keyof LtiPlatformBody, 'deploymentIds'>; label: string; placeholder: string }[] =
  [
    { key: 'name', label: 'Name', placeholder: 'Northfield Moodle' },
    { key: 'issuer', label: 'Issuer (platform ID)', placeholder: 'https://moodle.example.edu' },
    { key: 'clientId', label: 'Client ID', placeholder: 'Given by the platform' },
    {
      key: 'authLoginUrl',
      label: 'Authentication request URL',
      placeholder: 'https://moodle.example.edu/mod/lti/auth.php',
    },
    {
      key: 'tokenUrl',
      label: 'Access token URL',
      placeholder: 'https://moodle.example.edu/mod/lti/token.php',
    },
    {
      key: 'keySetUrl',
      label: 'Public keyset URL',
      placeholder: 'https://moodle.example.edu/mod/lti/certs.php',
    },
  ];

function RegisterDialog({
  institutionId,
  open,
  onOpenChange,
}: {
  institutionId: string;
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const id = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    const parsed = ltiPlatformBody.safeParse({
      ...values,
      deploymentIds: (values.deploymentIds ?? '').split(/[\s,]+/).filter(Boolean),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setError(issue ? plainIssue(issue) : 'Check the values');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await registerLtiPlatform(institutionId, parsed.data);
      setValues({});
      onOpenChange(false);
      toast.success('Platform registered');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Register a learning platform"
      description="Copy these values from the tool registration page of Moodle or Canvas."
      footer={
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button onClick={submit} loading={busy}>
            Register
          </Button>
        </div>
      }
    >
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {FIELDS.map((f) => (
          <div key={f.key} className="flex flex-col gap-1">
            <Label htmlFor={`${id}-${f.key}`}>{f.label}</Label>
            <Input
              id={`${id}-${f.key}`}
              placeholder={f.placeholder}
              value={values[f.key] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
            />
          </div>
        ))}
        <div className="flex flex-col gap-1">
          <Label htmlFor={`${id}-deployments`}>Deployment IDs</Label>
          <Input
            id={`${id}-deployments`}
            placeholder="1 (separate several with commas)"
            value={values.deploymentIds ?? ''}
            onChange={(e) => setValues((v) => ({ ...v, deploymentIds: e.target.value }))}
          />
        </div>
        {error ? <FieldMessage error>{error}</FieldMessage> : null}
      </form>
    </Dialog>
  );
}

export function LtiPlatformsSection({ institutionId }: { institutionId: string }) {
  const platforms = useLtiPlatforms(institutionId);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [registrationUrl, setRegistrationUrl] = useState<string | null>(null);
  const [linking, setLinking] = useState(false);
  const data = platforms.data;

  return (
    <section aria-label="Learning platforms">
      <h2 className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">Learning platforms</h2>
      <div className="divide-y divide-line rounded-lg border border-line bg-surface">
        <div className="px-4 py-3">
          <p className="text-[13px] text-muted">
            Courses on Moodle or Canvas open Lantern by LTI 1.3: each course gets its own workspace, which you
            own. Give the platform these addresses.
          </p>
          {data ? (
            <div className="mt-2">
              <CopyRow label="Launch URL" value={data.tool.launchUrl} />
              <CopyRow label="Public keyset" value={data.tool.keySetUrl} />
            </div>
          ) : null}
        </div>
        {data === undefined && platforms.loading ? (
          <Spinner label="Loading platforms" className="py-3" />
        ) : null}
        {platforms.error && data === undefined ? (
          <p className="px-4 py-3 text-[13px] text-muted">{platforms.error}</p>
        ) : null}
        {(data?.platforms ?? []).map((p) => (
          <div key={p.id} className="flex flex-col gap-1 px-4 py-3">
            <div className="flex items-center gap-3">
              <GraduationCap className="size-4 shrink-0 text-muted" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium">{p.name}</p>
                <p className="truncate text-[13px] text-muted">{p.issuer}</p>
              </div>
              <Button
                variant="ghost"
                size="sm"
                loading={removing === p.id}
                aria-label={`Remove ${p.name}`}
                onClick={() => {
                  setRemoving(p.id);
                  removeLtiPlatform(institutionId, p.id)
                    .catch(notifyError)
                    .finally(() => setRemoving(null));
                }}
              >
                <Trash2 aria-hidden />
                Remove
              </Button>
            </div>
            <CopyRow label="Login URL" value={p.loginUrl} />
          </div>
        ))}
        {registrationUrl ? (
          <div className="px-4 py-3">
            <p className="text-[13px] text-muted">
              Paste this address into the platform's dynamic registration (Moodle: Manage tools; Canvas:
              Developer keys → LTI Registration). It works once, within an hour.
            </p>
            <CopyRow label="Registration URL" value={registrationUrl} />
          </div>
        ) : null}
        <div className="flex flex-wrap gap-1 px-4 py-2">
          <Button variant="ghost" size="sm" onClick={() => setAdding(true)}>
            <Plus aria-hidden />
            Register a platform
          </Button>
          <Button
            variant="ghost"
            size="sm"
            loading={linking}
            onClick={() => {
              setLinking(true);
              createRegistrationLink(institutionId)
                .then(setRegistrationUrl, notifyError)
                .finally(() => setLinking(false));
            }}
          >
            <Link2 aria-hidden />
            Get a registration address
          </Button>
        </div>
      </div>
      <RegisterDialog institutionId={institutionId} open={adding} onOpenChange={setAdding} />
    </section>
  );
}
