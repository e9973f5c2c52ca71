// Create or edit an agent (admins): picture, name, instructions, model override, who may ask it, the
// tool step cap and whether every tool call waits for approval. Server refusals show as its message.
import { ImageUp, Megaphone, UserRoundX, Users, X } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import type { Agent, AgentInvokableBy } from '../../../schemas/protocol/index.ts';
import { AGENT_INSTRUCTIONS_MAX } from '../../../schemas/protocol/index.ts';
import { errorMessage } from '../../app/notify.ts';
import type { CreateAgentInput } from '../../data/agents.ts';
import { fieldError } from '../../store/api-error.ts';
import { Avatar } from '../ui/avatar.tsx';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { FieldMessage, Input, Label } from '../ui/input.tsx';
import { PictureFileInput } from '../ui/picture-file-input.tsx';
import { Select } from '../ui/select.tsx';
import { SwitchRow } from '../ui/switch.tsx';
import { type ModelChoices, offeredModel } from './agent-labels.ts';
import { PictureError, pictureDataUrl } from './picture-data-url.ts';

export const DEFAULT_TOOL_STEPS = 8;

export const INVOKE_CHOICES: { value: AgentInvokableBy; label: string; help: string; icon: typeof Users }[] =
  [
    { value: 'everyone', label: 'Everyone', help: 'Anyone who can post where it is mentioned.', icon: Users },
    {
      value: 'channel_owners',
      label: 'Channel owners',
      help: 'Only owners of the channel it is mentioned in.',
      icon: Megaphone,
    },
    { value: 'nobody', label: 'Nobody', help: 'Paused: mentions get a short refusal.', icon: UserRoundX },
  ];

export const textareaClass =
  'w-full rounded-md border border-line-strong bg-surface px-3 py-2 text-sm text-fg shadow-xs outline-none placeholder:text-faint focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-danger';

/** The form's fields for the request's (the server's 400 names the request's). */
const FORM_FIELD = { name: 'name', profileImage: 'picture', maxToolSteps: 'steps' } as const;

/** The model list's choice for "whatever the workspace default is". */
const WORKSPACE_DEFAULT = 'workspace-default';

export function AgentForm({
  agent,
  choices,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  agent?: Agent;
  choices: ModelChoices;
  submitLabel: string;
  onSubmit: (input: CreateAgentInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(agent?.name ?? '');
  const [picture, setPicture] = useState(agent?.profileImage ?? '');
  const [instructions, setInstructions] = useState(agent?.instructions ?? '');
  // A saved model the server no longer offers is not kept: the form starts on the default, and says why.
  const retiredModel = agent?.model && !offeredModel(agent.model, choices) ? agent.model : null;
  const [model, setModel] = useState(offeredModel(agent?.model ?? null, choices) ?? '');
  const { defaultModel, models } = choices;
  const [invokableBy, setInvokableBy] = useState<AgentInvokableBy>(agent?.invokableBy ?? 'everyone');
  const [steps, setSteps] = useState(String(agent?.maxToolSteps ?? DEFAULT_TOOL_STEPS));
  const [approveAll, setApproveAll] = useState(agent?.approveAllTools ?? false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field: 'name' | 'picture' | 'steps' | null; message: string } | null>(
    null,
  );
  const fileInput = useRef<HTMLInputElement>(null);
  const inline = picture.startsWith('data:');

  async function choosePicture(file: File | undefined) {
    if (!file) return;
    try {
      setPicture(await pictureDataUrl(file));
      setError(null);
    } catch (err) {
      setError({ field: 'picture', message: err instanceof PictureError ? err.message : errorMessage(err) });
    }
  }

  /** Shows the message under its field and moves there: the field may be scrolled out of sight. */
  function refuse(field: 'name' | 'picture' | 'steps', message: string) {
    setError({ field, message });
    document.getElementById(`${id}-${field}`)?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return refuse('name', 'Name cannot be empty');
    const url = picture.trim();
    if (url && !inline && !/^https?:\/\//i.test(url))
      return refuse('picture', 'The picture must be an http(s) address');
    const stepCount = Number(steps);
    if (!Number.isInteger(stepCount) || stepCount < 1 || stepCount > 50)
      return refuse('steps', 'Choose a whole number from 1 to 50');
    setBusy(true);
    setError(null);
    try {
      await onSubmit({
        name: name.trim(),
        profileImage: url || null,
        instructions,
        model: model || null,
        invokableBy,
        maxToolSteps: stepCount,
        approveAllTools: approveAll,
      });
    } catch (err) {
      // A refusal the server pins on one field shows beside that field (issue 15 item 4).
      const field = (['name', 'profileImage', 'maxToolSteps'] as const).find((f) => fieldError(err, f));
      if (field) refuse(FORM_FIELD[field], fieldError(err, field) ?? errorMessage(err));
      else setError({ field: null, message: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-6" noValidate aria-label="Agent settings">
      <div className="flex items-start gap-4">
        <Avatar id={agent?.id ?? 'new-agent'} name={name || 'Agent'} src={picture.trim() || null} size="lg" />
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <Label htmlFor={`${id}-picture`}>Picture</Label>
          <div className="flex gap-2">
            {inline ? (
              <span className="flex h-9 min-w-0 flex-1 items-center gap-2 rounded-md border border-line bg-surface-2 px-3 text-sm text-muted">
                <ImageUp className="size-4 shrink-0" aria-hidden />
                <span className="truncate">Uploaded image</span>
              </span>
            ) : (
              <Input
                id={`${id}-picture`}
                type="url"
                value={picture}
                onChange={(e) => setPicture(e.target.value)}
                placeholder="https://… or upload an image"
                aria-invalid={error?.field === 'picture' ? true : undefined}
              />
            )}
            <Button variant="outline" onClick={() => fileInput.current?.click()}>
              <ImageUp aria-hidden />
              Upload
            </Button>
            {picture ? (
              <Button
                variant="ghost"
                size="icon"
                className="size-9"
                aria-label="Remove picture"
                onClick={() => setPicture('')}
              >
                <X />
              </Button>
            ) : null}
          </div>
          <PictureFileInput
            inputRef={fileInput}
            label="Upload a picture"
            onChoose={(file) => void choosePicture(file)}
          />
          {error?.field === 'picture' ? (
            <FieldMessage error>{error.message}</FieldMessage>
          ) : (
            <FieldMessage>Leave empty to show initials.</FieldMessage>
          )}
        </div>
      </div>

      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-name`}>Name</Label>
        <Input
          id={`${id}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. Handbook"
          maxLength={80}
          autoComplete="off"
          autoFocus={!agent}
          aria-invalid={error?.field === 'name' ? true : undefined}
        />
        {error?.field === 'name' ? (
          <FieldMessage error>{error.message}</FieldMessage>
        ) : (
          <FieldMessage>People mention it with @ and this name.</FieldMessage>
        )}
      </div>

      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-instructions`}>Instructions</Label>
        <textarea
          id={`${id}-instructions`}
          value={instructions}
          onChange={(e) => setInstructions(e.target.value)}
          rows={6}
          maxLength={AGENT_INSTRUCTIONS_MAX}
          placeholder="What it is for, how it should answer, what it must not do…"
          className={cn(textareaClass, 'min-h-32 resize-y')}
        />
        <FieldMessage>
          Given to the model before every question. {instructions.length.toLocaleString()} /{' '}
          {AGENT_INSTRUCTIONS_MAX.toLocaleString()}
        </FieldMessage>
      </div>

      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-model`}>Model</Label>
        <Select
          id={`${id}-model`}
          // The default is a choice of its own: no item has an empty value (spec §9).
          value={model || WORKSPACE_DEFAULT}
          onValueChange={(v) => setModel(v === WORKSPACE_DEFAULT ? '' : v)}
          disabled={models.length === 0}
          options={[
            {
              value: WORKSPACE_DEFAULT,
              label: defaultModel
                ? `Workspace default (${defaultModel})`
                : 'No model configured on this server',
            },
            ...models.filter((m) => m !== defaultModel).map((m) => ({ value: m, label: m })),
          ]}
        />
        <FieldMessage>
          {retiredModel ? (
            <>
              Its model <code className="font-mono">{retiredModel}</code> is no longer offered on this server,
              so it answers with the workspace default.
            </>
          ) : defaultModel ? (
            models.length > 1 ? (
              'The models this server offers; the default follows the server if it changes.'
            ) : (
              'The only model this server offers.'
            )
          ) : (
            <>
              Without a model the agent answers with the passages of its knowledge that match best, and runs
              tools called as <code className="font-mono whitespace-nowrap">/tool-name {'{json}'}</code>.
            </>
          )}
        </FieldMessage>
      </div>

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1.5 text-[13px] font-medium">Who may ask it</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {INVOKE_CHOICES.map(({ value, label, help, icon: Icon }) => (
            <label
              key={value}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-lg border p-3 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                invokableBy === value ? 'border-accent bg-accent-soft/40' : 'border-line hover:bg-hover',
              )}
            >
              <input
                type="radio"
                name={`${id}-invoke`}
                value={value}
                checked={invokableBy === value}
                onChange={() => setInvokableBy(value)}
                className="sr-only"
              />
              <Icon className="mt-0.5 size-4 shrink-0 text-muted" aria-hidden />
              <span>
                <span className="block text-sm font-medium">{label}</span>
                <span className="block text-[13px] text-muted">{help}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <div className="flex flex-col rounded-lg border border-line px-4">
        <div className="flex items-center justify-between gap-6 py-3">
          <div className="min-w-0">
            <label htmlFor={`${id}-steps`} className="text-sm font-medium">
              Tool steps per answer
            </label>
            <p className="text-[13px] text-muted">The run stops after this many tool calls (1–50).</p>
            {error?.field === 'steps' ? <FieldMessage error>{error.message}</FieldMessage> : null}
          </div>
          <Input
            id={`${id}-steps`}
            type="number"
            inputMode="numeric"
            min={1}
            max={50}
            value={steps}
            onChange={(e) => setSteps(e.target.value)}
            className="w-20 text-right tabular-nums"
            aria-invalid={error?.field === 'steps' ? true : undefined}
          />
        </div>
        <div className="border-t border-line">
          <SwitchRow
            label="Ask before every tool"
            description="Each tool call waits for the person who asked to approve it, not only the ones their server marks destructive."
            checked={approveAll}
            onCheckedChange={setApproveAll}
          />
        </div>
      </div>

      {error && error.field === null ? <FieldMessage error>{error.message}</FieldMessage> : null}
      <div className="flex flex-wrap items-center justify-end gap-2">
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
