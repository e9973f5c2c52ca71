// Add or edit one MCP connection: name, how it is reached (a command on this host, or an HTTP URL with
// headers), its variables (stored ones masked; leaving the mask keeps them) and "Test connection", which
// connects without saving and lists the tools or says why it failed.
import { CircleAlert, CircleCheck, Eye, EyeOff, Plus, TerminalSquare, X } from 'lucide-react';
import { type ReactNode, useCallback, useId, useState } from 'react';
import { MASKED_VALUE, type McpConnectResponse } from '../../../schemas/protocol/index.ts';
import { errorMessage } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { saveMcpConnection, testMcpConnection } from '../../data/agents.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { Dialog } from '../ui/dialog.tsx';
import { FieldMessage, Input, Label } from '../ui/input.tsx';
import { textareaClass } from './agent-form.tsx';
import {
  type ConnectionDraft,
  commandLine,
  emptyVariable,
  humanise,
  rowKey,
  toRequest,
  type VariableRow,
} from './mcp-connection-draft.ts';

export function McpConnectionDialog({
  open,
  onOpenChange,
  institutionId,
  agentId,
  initial,
  connectionId,
  templateName,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  institutionId: string;
  agentId: string;
  initial: ConnectionDraft;
  /** Editing a saved connection (its stored variables fill masked fields in the test and on save). */
  connectionId?: string;
  templateName?: string;
}) {
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<McpConnectResponse | null>(null);
  const change = (patch: Partial<ConnectionDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setResult(null);
  };
  const setVariable = (key: string, patch: Partial<VariableRow>) =>
    change({ variables: draft.variables.map((v) => (v.key === key ? { ...v, ...patch } : v)) });

  async function test() {
    const req = toRequest(draft);
    if (!req.ok) return setError(req.error);
    setError(null);
    setTesting(true);
    setResult(null);
    try {
      setResult(
        await testMcpConnection(institutionId, {
          transport: req.body.transport,
          environmentVariables: req.body.environmentVariables,
          id: connectionId,
        }),
      );
    } catch (err) {
      setResult({ error: errorMessage(err) });
    } finally {
      setTesting(false);
    }
  }

  async function save() {
    const req = toRequest(draft);
    if (!req.ok) return setError(req.error);
    setError(null);
    setSaving(true);
    try {
      await saveMcpConnection(institutionId, agentId, req.body, connectionId);
      toast.success(connectionId ? 'Connection saved' : `${req.body.name} connected`);
      onOpenChange(false);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  }

  const line = commandLine(draft);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={connectionId ? `Edit ${initial.name}` : 'Add connection'}
      description={
        templateName
          ? `From the ${templateName} template. Test it before saving.`
          : 'Changes apply to the next question the agent is asked.'
      }
      className="max-w-xl"
      footer={
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Button variant="outline" onClick={() => void test()} loading={testing}>
            <TerminalSquare aria-hidden />
            Test connection
          </Button>
          <div className="flex gap-2">
            <Button variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" form={`${id}-form`} loading={saving}>
              {connectionId ? 'Save' : 'Add connection'}
            </Button>
          </div>
        </div>
      }
    >
      <form
        id={`${id}-form`}
        className="flex flex-col gap-5 pt-2"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input
            id={`${id}-name`}
            value={draft.name}
            onChange={(e) => change({ name: e.target.value })}
            maxLength={80}
            autoComplete="off"
          />
        </div>

        {draft.type === 'stdio' ? (
          <Group title="Command on this server">
            {draft.lockedArgs ? (
              <>
                {draft.placeholders.map((p) => (
                  <div key={p.name} className="flex flex-col gap-1.5">
                    <Label htmlFor={`${id}-ph-${p.name}`} className="capitalize">
                      {humanise(p.name)}
                    </Label>
                    <Input
                      id={`${id}-ph-${p.name}`}
                      value={p.value}
                      onChange={(e) =>
                        change({
                          placeholders: draft.placeholders.map((q) =>
                            q.name === p.name ? { ...q, value: e.target.value } : q,
                          ),
                        })
                      }
                      placeholder={p.name === 'folder' ? '/srv/shared/handbook' : ''}
                      spellCheck={false}
                      className="font-mono text-[13px]"
                    />
                  </div>
                ))}
                <CommandPreview command={line.command} args={line.args} />
              </>
            ) : (
              <>
                <div className="flex flex-col gap-1.5">
                  <Label htmlFor={`${id}-command`}>Command</Label>
                  <Input
                    id={`${id}-command`}
                    value={draft.command}
                    onChange={(e) => change({ command: e.target.value })}
                    placeholder="mcp-server-memory"
                    spellCheck={false}
                    autoComplete="off"
                    className="font-mono text-[13px]"
                  />
                  <FieldMessage>The operator’s allowlist decides which commands may start.</FieldMessage>
                </div>
                <div className="flex flex-col gap-1.5">
                  <Label htmlFor={`${id}-args`}>Arguments, one per line</Label>
                  <textarea
                    id={`${id}-args`}
                    value={draft.args}
                    onChange={(e) => change({ args: e.target.value })}
                    rows={3}
                    spellCheck={false}
                    className={cn(textareaClass, 'resize-y font-mono text-[13px]')}
                  />
                </div>
              </>
            )}
          </Group>
        ) : (
          <Group title="Server address">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={`${id}-url`}>URL</Label>
              <Input
                id={`${id}-url`}
                type="url"
                value={draft.url}
                onChange={(e) => change({ url: e.target.value })}
                placeholder="https://mcp.example.com/mcp"
                spellCheck={false}
                autoComplete="off"
              />
              <FieldMessage>Streamable HTTP, with SSE as the fallback.</FieldMessage>
            </div>
            <PairRows
              label="Headers"
              addLabel="Add header"
              rows={draft.headers}
              namePlaceholder="Authorization"
              valuePlaceholder={'Bearer \u0024{API_TOKEN}'}
              onChange={(headers) => change({ headers })}
              onAdd={() => change({ headers: [...draft.headers, { key: rowKey(), name: '', value: '' }] })}
            />
          </Group>
        )}

        <Group
          title="Variables"
          help="Kept encrypted on the server, passed only to this connection, never shown to a model or read back."
        >
          {draft.variables.length === 0 ? (
            <p className="text-[13px] text-muted">None. Add one for a key or setting the server reads.</p>
          ) : (
            <ul className="flex flex-col gap-3" aria-label="Variables">
              {draft.variables.map((v) => (
                <VariableField
                  key={v.key}
                  row={v}
                  onChange={(patch) => setVariable(v.key, patch)}
                  onRemove={() => change({ variables: draft.variables.filter((x) => x.key !== v.key) })}
                />
              ))}
            </ul>
          )}
          <div>
            <Button
              variant="outline"
              size="sm"
              onClick={() => change({ variables: [...draft.variables, emptyVariable()] })}
            >
              <Plus aria-hidden />
              Add variable
            </Button>
          </div>
        </Group>

        <TestResult result={result} />
        {error ? <FieldMessage error>{error}</FieldMessage> : null}
      </form>
    </Dialog>
  );
}

function Group({ title, help, children }: { title: string; help?: string; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-line p-3">
      <legend className="px-1 text-[13px] font-medium">{title}</legend>
      {help ? <p className="-mt-1 text-xs text-muted">{help}</p> : null}
      {children}
    </fieldset>
  );
}

function CommandPreview({ command, args }: { command: string; args: string[] }) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs text-muted">Runs</span>
      <code className="block overflow-x-auto rounded-md bg-surface-2 px-3 py-2 font-mono text-[12px] whitespace-pre text-fg">
        {[command, ...args.map((a) => (a === '' ? '…' : /\s/.test(a) ? `"${a}"` : a))].join(' ')}
      </code>
    </div>
  );
}

function VariableField({
  row,
  onChange,
  onRemove,
}: {
  row: VariableRow;
  onChange: (patch: Partial<VariableRow>) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const masked = row.stored && row.value === MASKED_VALUE;
  return (
    <li className="flex flex-col gap-1.5">
      <div className="flex items-start gap-2">
        {row.fromTemplate || row.stored ? (
          <Label
            htmlFor={`${id}-value`}
            className="flex h-9 w-28 shrink-0 items-center truncate font-mono sm:w-40 text-[12px]"
          >
            {row.name}
            {row.required ? <span className="ml-0.5 text-danger">*</span> : null}
          </Label>
        ) : (
          <Input
            value={row.name}
            onChange={(e) => onChange({ name: e.target.value })}
            placeholder="NAME"
            aria-label="Variable name"
            spellCheck={false}
            autoComplete="off"
            className="w-28 shrink-0 font-mono text-[12px] uppercase placeholder:normal-case sm:w-40"
          />
        )}
        <div className="relative min-w-0 flex-1">
          <Input
            id={`${id}-value`}
            type={shown && !masked ? 'text' : 'password'}
            value={row.value}
            onChange={(e) => onChange({ value: e.target.value })}
            onFocus={(e) => {
              // Typing over the mask replaces the stored value; select it so one keystroke does.
              if (masked) e.target.select();
            }}
            aria-label={row.name ? `Value of ${row.name}` : 'Variable value'}
            placeholder={row.required ? 'Required' : 'Value'}
            autoComplete="new-password"
            spellCheck={false}
            className="pr-9 font-mono text-[12px]"
          />
          {!masked ? (
            <button
              type="button"
              onClick={() => setShown((s) => !s)}
              aria-label={shown ? 'Hide value' : 'Show value'}
              className="absolute top-1.5 right-1.5 flex size-6 items-center justify-center rounded text-muted hover:bg-hover hover:text-fg [&_svg]:size-3.5"
            >
              {shown ? <EyeOff /> : <Eye />}
            </button>
          ) : null}
        </div>
        {row.fromTemplate && row.required ? (
          <span className="size-8 shrink-0" aria-hidden />
        ) : (
          <Button
            variant="ghost"
            size="icon"
            className="mt-0.5 shrink-0 text-muted"
            aria-label={`Remove ${row.name || 'variable'}`}
            onClick={onRemove}
          >
            <X />
          </Button>
        )}
      </div>
      {masked ? (
        <FieldMessage>Stored. Leave it to keep the value, or type a new one.</FieldMessage>
      ) : row.description ? (
        <FieldMessage>{row.description}</FieldMessage>
      ) : null}
    </li>
  );
}

function PairRows({
  label,
  addLabel,
  rows,
  namePlaceholder,
  valuePlaceholder,
  onChange,
  onAdd,
}: {
  label: string;
  addLabel: string;
  rows: { key: string; name: string; value: string }[];
  namePlaceholder: string;
  valuePlaceholder: string;
  onChange: (rows: { key: string; name: string; value: string }[]) => void;
  onAdd: () => void;
}) {
  return (
    <div className="flex flex-col gap-2">
      <span className="text-[13px] font-medium">{label}</span>
      {rows.map((row) => (
        <div key={row.key} className="flex gap-2">
          <Input
            value={row.name}
            onChange={(e) =>
              onChange(rows.map((r) => (r.key === row.key ? { ...r, name: e.target.value } : r)))
            }
            placeholder={namePlaceholder}
            aria-label="Header name"
            className="w-28 shrink-0 font-mono text-[12px] sm:w-40"
          />
          <Input
            value={row.value}
            onChange={(e) =>
              onChange(rows.map((r) => (r.key === row.key ? { ...r, value: e.target.value } : r)))
            }
            placeholder={valuePlaceholder}
            aria-label="Header value"
            className="min-w-0 flex-1 font-mono text-[12px]"
          />
          <Button
            variant="ghost"
            size="icon"
            className="mt-0.5 shrink-0 text-muted"
            aria-label="Remove header"
            onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
          >
            <X />
          </Button>
        </div>
      ))}
      <div>
        <Button variant="outline" size="sm" onClick={onAdd}>
          <Plus aria-hidden />
          {addLabel}
        </Button>
      </div>
    </div>
  );
}

function TestResult({ result }: { result: McpConnectResponse | null }) {
  // The answer appears below the fields, often out of sight in a scrolled dialog: bring it into view.
  const shown = useCallback((node: HTMLElement | null) => node?.scrollIntoView({ block: 'nearest' }), []);
  if (!result) return null;
  if ('error' in result)
    return (
      <div
        ref={shown}
        role="alert"
        className="flex items-start gap-2 rounded-lg border border-danger/30 bg-danger-soft/50 px-3 py-2.5 text-sm"
      >
        <CircleAlert className="mt-0.5 size-4 shrink-0 text-danger" aria-hidden />
        <div className="min-w-0">
          <p className="font-medium">Could not connect</p>
          <p className="text-[13px] break-words text-muted">{result.error}</p>
        </div>
      </div>
    );
  return (
    <section
      ref={shown}
      aria-label="Test result"
      className="flex flex-col gap-2 rounded-lg border border-emerald-600/30 bg-emerald-50 px-3 py-2.5 dark:bg-emerald-950/40"
    >
      <p className="flex items-center gap-2 text-sm font-medium">
        <CircleCheck className="size-4 text-emerald-600 dark:text-emerald-400" aria-hidden />
        Connected: {result.tools.length} {result.tools.length === 1 ? 'tool' : 'tools'}
      </p>
      {result.tools.length > 0 ? (
        <ul className="flex max-h-48 flex-col gap-1 overflow-y-auto" aria-label="Tools">
          {result.tools.map((tool) => (
            <li key={tool.name} className="text-[13px]">
              <code className="font-mono text-[12px] font-semibold">{tool.name}</code>
              {tool.description ? <span className="text-muted"> · {tool.description}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
