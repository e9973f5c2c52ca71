// Workspace settings → Agents (/client/:clientId/settings/agents): the workspace's AI agents. Admins
// (primary owner, owner, admin) create and configure them and see usage and the daily token limit;
// everyone else sees the list read-only, so they know whom they can ask (as Slack shows installed apps
// to every member while only admins manage them).
import { Bot, ChevronLeft, ChevronRight, Info, Plus } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { usePageTitle } from '../app/title.ts';
import { useWorkspace } from '../app/workspace-context.ts';
import { INVOKE_LABELS, modelLine } from '../components/agents/agent-labels.ts';
import { ListState } from '../components/agents/list-state.tsx';
import { StatusChip } from '../components/agents/status-chip.tsx';
import { AgentUsageSection } from '../components/agents/usage-table.tsx';
import { Avatar } from '../components/ui/avatar.tsx';
import { Button } from '../components/ui/button.tsx';
import { EmptyState } from '../components/ui/states.tsx';
import { ScreenBody, ScreenHeader } from '../components/workspace/screen-header.tsx';
import { useAgents } from '../data/agents.ts';
import { useWorkspacePermissions } from '../data/workspaces.ts';

export function AgentsSettingsScreen() {
  usePageTitle('Agents');
  const { institution } = useWorkspace();
  const access = useWorkspacePermissions(institution.id);
  const canManage = access?.canManageMembers === true;
  const agents = useAgents(institution.id);
  const navigate = useNavigate();
  const base = `/client/${institution.id}/settings/agents`;
  const list = agents.data?.agents;
  const defaultModel = agents.data?.defaultModel ?? null;
  const choices = { defaultModel, models: agents.data?.models ?? [] };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader
        title="Agents"
        icon={<Bot />}
        subtitle={
          canManage ? 'Assistants that answer from your documents and tools' : 'Managed by owners and admins'
        }
        actions={
          canManage ? (
            <Button size="sm" onClick={() => void navigate(`${base}/new`)}>
              <Plus aria-hidden />
              New agent
            </Button>
          ) : null
        }
      />
      <ScreenBody className="flex flex-col gap-8">
        <div className="-mb-4">
          <Link
            to={`/client/${institution.id}/settings`}
            className="inline-flex items-center gap-1 text-[13px] text-muted hover:text-fg"
          >
            <ChevronLeft className="size-4" aria-hidden />
            Settings
          </Link>
        </div>
        {agents.data && defaultModel === null && (list?.length ?? 0) > 0 ? (
          <div className="flex items-start gap-3 rounded-xl border border-line bg-surface-2 px-4 py-3 text-[13px]">
            <Info className="mt-0.5 size-4 shrink-0 text-muted" aria-hidden />
            <p className="text-muted">
              <span className="font-medium text-fg">No language model is configured on this server.</span>{' '}
              Agents still answer: with the passages of their knowledge that match a question best, cited, and
              by running a tool called as <code className="font-mono text-[12px]">/tool-name {'{json}'}</code>
              .
            </p>
          </div>
        ) : null}
        <section aria-label="Agents" className="flex flex-col gap-3">
          <ListState
            list={list}
            error={agents.error}
            empty={
              <EmptyState
                icon={Bot}
                title="No agents yet"
                className="rounded-xl border border-dashed border-line"
                action={
                  canManage ? (
                    <Button variant="outline" onClick={() => void navigate(`${base}/new`)}>
                      <Plus aria-hidden />
                      Create an agent
                    </Button>
                  ) : null
                }
              >
                An agent is a member people can @mention or message. It answers from the documents you give it
                and can use tools through MCP servers.
              </EmptyState>
            }
          >
            {(items) => (
              <ul
                className="divide-y divide-line rounded-xl border border-line bg-surface"
                aria-label="Agent list"
              >
                {items.map((agent) => (
                  <li key={agent.id}>
                    <Link
                      to={`${base}/${agent.id}`}
                      className="flex items-center gap-3 px-3 py-3 outline-none first:rounded-t-xl last:rounded-b-xl hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      <Avatar id={agent.id} name={agent.name} src={agent.profileImage} />
                      <span className="min-w-0 flex-1">
                        <span className="flex min-w-0 items-center gap-2">
                          <span className="truncate text-sm font-semibold">{agent.name}</span>
                          <StatusChip tone="accent">AI</StatusChip>
                        </span>
                        <span className="block truncate text-xs text-muted">{modelLine(agent, choices)}</span>
                      </span>
                      <span className="hidden sm:inline-flex">
                        <StatusChip tone={INVOKE_LABELS[agent.invokableBy].tone}>
                          {INVOKE_LABELS[agent.invokableBy].label}
                        </StatusChip>
                      </span>
                      <ChevronRight className="size-4 shrink-0 text-muted" aria-hidden />
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </ListState>
        </section>
        {canManage ? <AgentUsageSection institutionId={institution.id} /> : null}
      </ScreenBody>
    </div>
  );
}
