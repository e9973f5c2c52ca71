// One agent in the workspace settings (/client/:clientId/settings/agents/:agentId, and …/new to create
// one). Admins edit its profile, knowledge and tools and see its recent runs; everyone else sees what it
// is and what it knows, read-only (connections and runs are admins' business: the server refuses them).
import { Bot, ChevronLeft, Trash2 } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { Agent } from '../../schemas/protocol/index.ts';
import { notifyError } from '../app/notify.ts';
import { usePageTitle } from '../app/title.ts';
import { toast } from '../app/toast.ts';
import { useWorkspace } from '../app/workspace-context.ts';
import { AgentForm } from '../components/agents/agent-form.tsx';
import { INVOKE_LABELS, type ModelChoices, modelLine } from '../components/agents/agent-labels.ts';
import { AgentRunsList } from '../components/agents/agent-runs-list.tsx';
import { KnowledgeSourcesPanel } from '../components/agents/knowledge-sources-panel.tsx';
import { LoadError } from '../components/agents/load-error.tsx';
import { McpConnectionsPanel } from '../components/agents/mcp-connections-panel.tsx';
import { StatusChip } from '../components/agents/status-chip.tsx';
import { Avatar } from '../components/ui/avatar.tsx';
import { Button } from '../components/ui/button.tsx';
import { Dialog } from '../components/ui/dialog.tsx';
import { EmptyState, Spinner } from '../components/ui/states.tsx';
import { ScreenBody, ScreenHeader } from '../components/workspace/screen-header.tsx';
import { createAgent, deleteAgent, updateAgent, useAgents } from '../data/agents.ts';
import { useWorkspacePermissions } from '../data/workspaces.ts';

type AgentTab = 'profile' | 'knowledge' | 'tools' | 'activity';

function BackToAgents() {
  const { institution } = useWorkspace();
  return (
    <Link
      to={`/client/${institution.id}/settings/agents`}
      className="inline-flex items-center gap-1 text-[13px] text-muted hover:text-fg"
    >
      <ChevronLeft className="size-4" aria-hidden />
      Agents
    </Link>
  );
}

export function NewAgentScreen() {
  usePageTitle('New agent');
  const { institution } = useWorkspace();
  const access = useWorkspacePermissions(institution.id);
  const agents = useAgents(institution.id);
  const navigate = useNavigate();
  const base = `/client/${institution.id}/settings/agents`;
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader title="New agent" icon={<Bot />} subtitle="Agents" />
      <ScreenBody className="flex flex-col gap-5">
        <BackToAgents />
        {access === undefined ? (
          <Spinner />
        ) : !access?.canManageMembers ? (
          <EmptyState icon={Bot} title="Only owners and admins create agents" />
        ) : (
          <AgentForm
            choices={{ defaultModel: agents.data?.defaultModel ?? null, models: agents.data?.models ?? [] }}
            submitLabel="Create agent"
            onCancel={() => void navigate(base)}
            onSubmit={async (input) => {
              const agent = await createAgent(institution.id, input);
              toast.success(`${agent.name} created. Give it some knowledge next.`);
              void navigate(`${base}/${agent.id}?tab=knowledge`, { replace: true });
            }}
          />
        )}
      </ScreenBody>
    </div>
  );
}

export function AgentSettingsScreen() {
  const { agentId = '' } = useParams();
  const { institution } = useWorkspace();
  const agents = useAgents(institution.id);
  const agent = agents.data?.agents.find((a) => a.id === agentId);
  usePageTitle(agent?.name ?? 'Agent');

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader title={agent?.name ?? 'Agent'} icon={<Bot />} subtitle="Agents" />
      <ScreenBody className="flex flex-col gap-5">
        <BackToAgents />
        {agents.data === undefined ? (
          agents.error ? (
            <LoadError message={agents.error} />
          ) : (
            <Spinner />
          )
        ) : !agent ? (
          <EmptyState icon={Bot} title="This agent does not exist">
            It may have been deleted.
          </EmptyState>
        ) : (
          <AgentDetails agent={agent} choices={agents.data} />
        )}
      </ScreenBody>
    </div>
  );
}

function AgentDetails({ agent, choices }: { agent: Agent; choices: ModelChoices }) {
  const { institution } = useWorkspace();
  const access = useWorkspacePermissions(institution.id);
  const canManage = access?.canManageMembers === true;
  const [params, setParams] = useSearchParams();
  const tabs: { id: AgentTab; label: string }[] = canManage
    ? [
        { id: 'profile', label: 'Profile' },
        { id: 'knowledge', label: 'Knowledge' },
        { id: 'tools', label: 'Tools' },
        { id: 'activity', label: 'Activity' },
      ]
    : [
        { id: 'profile', label: 'About' },
        { id: 'knowledge', label: 'Knowledge' },
      ];
  const asked = params.get('tab') as AgentTab | null;
  const tab = tabs.some((t) => t.id === asked) ? (asked as AgentTab) : 'profile';

  return (
    <>
      <div className="flex items-center gap-4">
        <Avatar id={agent.id} name={agent.name} src={agent.profileImage} size="lg" />
        <div className="min-w-0">
          <div className="flex min-w-0 items-center gap-2">
            <h2 className="truncate text-lg font-semibold">{agent.name}</h2>
            <StatusChip tone="accent">AI agent</StatusChip>
          </div>
          <p className="truncate text-[13px] text-muted">{modelLine(agent, choices)}</p>
        </div>
      </div>
      <Tabs.Root
        value={tab}
        onValueChange={(v) => setParams(v === 'profile' ? {} : { tab: v }, { replace: true })}
        className="flex flex-col gap-5"
      >
        <Tabs.List className="-mx-1 flex gap-1 overflow-x-auto border-b border-line px-1" aria-label="Agent">
          {tabs.map((t) => (
            <Tabs.Trigger
              key={t.id}
              value={t.id}
              className="-mb-px flex h-10 shrink-0 items-center border-b-2 border-transparent px-2 text-[13px] font-medium text-muted outline-none hover:text-fg focus-visible:ring-2 focus-visible:ring-ring data-[state=active]:border-accent data-[state=active]:text-fg"
            >
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="profile" className="outline-none">
          {canManage ? (
            <EditProfile agent={agent} choices={choices} />
          ) : (
            <AgentSummary agent={agent} choices={choices} />
          )}
        </Tabs.Content>
        <Tabs.Content value="knowledge" className="outline-none">
          <KnowledgeSourcesPanel institutionId={institution.id} agentId={agent.id} canManage={canManage} />
        </Tabs.Content>
        {canManage ? (
          <>
            <Tabs.Content value="tools" className="outline-none">
              <McpConnectionsPanel institutionId={institution.id} agentId={agent.id} />
            </Tabs.Content>
            <Tabs.Content value="activity" className="outline-none">
              <AgentRunsList institutionId={institution.id} agentId={agent.id} />
            </Tabs.Content>
          </>
        ) : null}
      </Tabs.Root>
    </>
  );
}

function EditProfile({ agent, choices }: { agent: Agent; choices: ModelChoices }) {
  const { institution } = useWorkspace();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  return (
    <div className="flex flex-col gap-8">
      <AgentForm
        key={agent.id}
        agent={agent}
        choices={choices}
        submitLabel="Save changes"
        onSubmit={async (input) => {
          await updateAgent(institution.id, agent.id, input);
          toast.success('Agent saved');
        }}
      />
      <section
        aria-labelledby="agent-danger"
        className="flex flex-col gap-3 rounded-xl border border-danger/30 p-4 sm:flex-row sm:items-center"
      >
        <div className="min-w-0 flex-1">
          <h3 id="agent-danger" className="text-sm font-semibold">
            Delete this agent
          </h3>
          <p className="text-[13px] text-muted">
            Its knowledge and connections go with it. Answers it already gave stay in their channels.
          </p>
        </div>
        <Button variant="destructive" onClick={() => setDeleting(true)}>
          <Trash2 aria-hidden />
          Delete agent
        </Button>
      </section>
      <Dialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete ${agent.name}?`}
        description="This cannot be undone. People can no longer mention or message it."
      >
        <div className="flex justify-end gap-2 pt-3">
          <Button variant="ghost" onClick={() => setDeleting(false)}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={() => {
              setDeleting(false);
              void deleteAgent(institution.id, agent.id)
                .then(() => {
                  toast.success(`${agent.name} deleted`);
                  void navigate(`/client/${institution.id}/settings/agents`, { replace: true });
                })
                .catch(notifyError);
            }}
          >
            Delete agent
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

function AgentSummary({ agent, choices }: { agent: Agent; choices: ModelChoices }) {
  return (
    <dl className="divide-y divide-line rounded-xl border border-line bg-surface text-sm">
      <Fact label="Who may ask it">{INVOKE_LABELS[agent.invokableBy].label}</Fact>
      <Fact label="Model">{modelLine(agent, choices)}</Fact>
      <Fact label="Tool steps per answer">{String(agent.maxToolSteps)}</Fact>
      <Fact label="Tool approval">
        {agent.approveAllTools
          ? 'Asks the person who asked before every tool'
          : 'Asks before tools their server marks destructive'}
      </Fact>
      <Fact label="Instructions">
        {agent.instructions ? (
          <span className="whitespace-pre-wrap">{agent.instructions}</span>
        ) : (
          <span className="text-muted">None</span>
        )}
      </Fact>
    </dl>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 px-4 py-3 sm:flex-row sm:gap-4">
      <dt className="w-44 shrink-0 text-[13px] text-muted">{label}</dt>
      <dd className="min-w-0 flex-1">{children}</dd>
    </div>
  );
}
