// An agent's tools: its MCP connections (admins only), each with how it is reached and the names of its
// stored variables (values never come back), and adding one from a ready-made template.
import { Ban, Blocks, MoreHorizontal, Pencil, Plug, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { MASKED_VALUE, type McpConnection, type McpTemplate } from '../../../schemas/protocol/index.ts';
import { notifyError } from '../../app/notify.ts';
import { deleteMcpConnection, useMcpConnections, useMcpTemplates } from '../../data/agents.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { Dialog } from '../ui/dialog.tsx';
import { Menu, MenuContent, MenuItem, MenuSeparator, MenuTrigger } from '../ui/menu.tsx';
import { EmptyState, Spinner } from '../ui/states.tsx';
import { ListState } from './list-state.tsx';
import { LoadError } from './load-error.tsx';
import { McpConnectionDialog } from './mcp-connection-dialog.tsx';
import { type ConnectionDraft, draftFromConnection, draftFromTemplate } from './mcp-connection-draft.ts';
import { StatusChip } from './status-chip.tsx';

type Editing =
  | { kind: 'new'; draft: ConnectionDraft; template: McpTemplate; seq: number }
  | { kind: 'edit'; draft: ConnectionDraft; connection: McpConnection; seq: number }
  | null;

export function McpConnectionsPanel({ institutionId, agentId }: { institutionId: string; agentId: string }) {
  const connections = useMcpConnections(institutionId, agentId);
  const [picking, setPicking] = useState(false);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<McpConnection | null>(null);
  const [seq, setSeq] = useState(0);
  const list = connections.data;

  function choose(template: McpTemplate) {
    setPicking(false);
    setSeq((s) => s + 1);
    setEditing({ kind: 'new', draft: draftFromTemplate(template), template, seq: seq + 1 });
  }

  return (
    <section aria-labelledby={`${agentId}-tools`} className="flex flex-col gap-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h2 id={`${agentId}-tools`} className="text-sm font-semibold">
            Tools
          </h2>
          <p className="text-[13px] text-muted">
            MCP servers it may call while answering. Tools their server marks destructive wait for approval.
          </p>
        </div>
        <Button size="sm" className="self-start sm:self-auto" onClick={() => setPicking(true)}>
          <Plus aria-hidden />
          Add connection
        </Button>
      </div>
      <ListState
        list={list}
        error={connections.error}
        empty={
          <EmptyState
            icon={Plug}
            title="No tools connected"
            className="rounded-xl border border-dashed border-line py-8"
          >
            Connect a memory, a folder of files or your own MCP server; the agent can then act, not only
            answer.
          </EmptyState>
        }
      >
        {(items) => (
          <ul
            className="divide-y divide-line rounded-xl border border-line bg-surface"
            aria-label="Connections"
          >
            {items.map((c) => (
              <ConnectionRow
                key={c.id}
                connection={c}
                onEdit={() => {
                  setSeq((s) => s + 1);
                  setEditing({ kind: 'edit', draft: draftFromConnection(c), connection: c, seq: seq + 1 });
                }}
                onRemove={() => setRemoving(c)}
              />
            ))}
          </ul>
        )}
      </ListState>
      <TemplatePicker
        open={picking}
        onOpenChange={setPicking}
        institutionId={institutionId}
        onChoose={choose}
      />
      {editing ? (
        <McpConnectionDialog
          key={editing.seq}
          open
          onOpenChange={(o) => !o && setEditing(null)}
          institutionId={institutionId}
          agentId={agentId}
          initial={editing.draft}
          connectionId={editing.kind === 'edit' ? editing.connection.id : undefined}
          templateName={editing.kind === 'new' ? editing.template.name : undefined}
        />
      ) : null}
      <Dialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title={`Remove ${removing?.name ?? ''}?`}
        description="The agent loses its tools and the stored variables are deleted."
      >
        <div className="flex justify-end gap-2 pt-3">
          <Button variant="ghost" onClick={() => setRemoving(null)}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={() => {
              if (removing) void deleteMcpConnection(institutionId, agentId, removing.id).catch(notifyError);
              setRemoving(null);
            }}
          >
            Remove
          </Button>
        </div>
      </Dialog>
    </section>
  );
}

function ConnectionRow({
  connection,
  onEdit,
  onRemove,
}: {
  connection: McpConnection;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const t = connection.transport;
  const names = Object.keys(connection.environmentVariables);
  return (
    <li className="flex items-start gap-3 px-3 py-3" aria-label={connection.name}>
      <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg bg-selected text-muted">
        <Plug className="size-4" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex min-w-0 items-center gap-2">
          <span className="truncate text-sm font-medium">{connection.name}</span>
          <StatusChip tone="neutral">{t.type === 'stdio' ? 'Command' : 'HTTP'}</StatusChip>
        </div>
        <code className="mt-0.5 block truncate font-mono text-[12px] text-muted">
          {t.type === 'stdio' ? [t.command, ...t.args].join(' ') : t.url}
        </code>
        {names.length > 0 ? (
          <ul className="mt-1.5 flex flex-wrap gap-1" aria-label={`Variables of ${connection.name}`}>
            {names.map((n) => (
              <li
                key={n}
                className="rounded bg-surface-2 px-1.5 py-0.5 font-mono text-[11px] text-muted ring-1 ring-line"
              >
                {n} {MASKED_VALUE}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <Menu>
        <MenuTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className="shrink-0"
            aria-label={`Options for ${connection.name}`}
          >
            <MoreHorizontal />
          </Button>
        </MenuTrigger>
        <MenuContent align="end">
          <MenuItem icon={<Pencil />} onSelect={onEdit}>
            Edit connection
          </MenuItem>
          <MenuSeparator />
          <MenuItem icon={<Trash2 />} destructive onSelect={onRemove}>
            Remove connection
          </MenuItem>
        </MenuContent>
      </Menu>
    </li>
  );
}

function TemplatePicker({
  open,
  onOpenChange,
  institutionId,
  onChoose,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  institutionId: string;
  onChoose: (template: McpTemplate) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add connection"
      description="Start from a ready-made server, or connect your own."
      className="max-w-lg"
    >
      {open ? <TemplateList institutionId={institutionId} onChoose={onChoose} /> : null}
    </Dialog>
  );
}

function TemplateList({
  institutionId,
  onChoose,
}: {
  institutionId: string;
  onChoose: (template: McpTemplate) => void;
}) {
  const templates = useMcpTemplates(institutionId);
  if (templates.data === undefined)
    return templates.error ? <LoadError message={templates.error} /> : <Spinner />;
  return (
    <ul className="flex flex-col gap-2 pt-2" aria-label="Templates">
      {templates.data.map((t) => {
        const why = unavailableReason(t);
        return (
          <li key={t.key}>
            <button
              type="button"
              disabled={why !== null}
              onClick={() => onChoose(t)}
              aria-describedby={`template-${t.key}-help`}
              className={cn(
                'flex w-full items-start gap-3 rounded-lg border border-line p-3 text-left outline-none focus-visible:ring-2 focus-visible:ring-ring',
                why ? 'cursor-not-allowed bg-surface-2' : 'hover:border-line-strong hover:bg-hover',
              )}
            >
              <span
                className={cn(
                  'mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg',
                  why ? 'bg-selected text-faint' : 'bg-accent-soft text-accent-fg',
                )}
              >
                {why ? <Ban className="size-4" aria-hidden /> : <Blocks className="size-4" aria-hidden />}
              </span>
              <span className="min-w-0 flex-1">
                <span className={cn('block text-sm font-medium', why && 'text-muted')}>{t.name}</span>
                <span id={`template-${t.key}-help`} className="block text-[13px] text-muted">
                  {t.description}
                  {why ? <span className="mt-1 block text-xs text-fg/80">{why}</span> : null}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function unavailableReason(t: McpTemplate): string | null {
  if (t.allowed) return null;
  // Placeholders ({folder}) are chosen per connection; the allowlist entry is the fixed part.
  const line =
    t.transport.type === 'stdio'
      ? [t.transport.command, ...t.transport.args.filter((a) => !a.startsWith('{'))].join(' ')
      : '';
  return t.needsInstallation
    ? `Not available here: the operator must install it and allow “${line}” in MCP_STDIO_ALLOWLIST.`
    : `Not allowed on this server: the operator can add “${line}” to MCP_STDIO_ALLOWLIST.`;
}
