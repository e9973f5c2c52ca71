// Agents as workspace members of their own kind: a users row that never signs in (its address is on the
// reserved .invalid domain), a members row with kind 'agent', and the agent's settings keyed by member id.
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Agent, createAgentBody, updateAgentBody } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { agents, members, users } from '../db/schema.ts';
import { notFound } from '../errors.ts';

export type AgentRow = typeof agents.$inferSelect;
export interface AgentRecord {
  agent: AgentRow;
  name: string;
  profileImage: string | null;
  userId: string;
}

/** Agents' users live under a reserved domain (.invalid can never receive mail); nobody signs in there. */
export const AGENT_EMAIL_DOMAIN = 'agents.lantern.invalid';
export const agentEmail = (memberId: string) => `agent-${memberId}@${AGENT_EMAIL_DOMAIN}`;
export const isAgentEmail = (email: string) => email.toLowerCase().endsWith(`@${AGENT_EMAIL_DOMAIN}`);

export function toWireAgent(r: AgentRecord): Agent {
  return {
    id: r.agent.memberId,
    institutionId: r.agent.institutionId,
    name: r.name,
    profileImage: r.profileImage,
    instructions: r.agent.instructions,
    model: r.agent.model,
    invokableBy: r.agent.invokableBy,
    maxToolSteps: r.agent.maxToolSteps,
    approveAllTools: r.agent.approveAllTools,
    createdAt: r.agent.createdAt.toISOString(),
  };
}

const selection = {
  agent: agents,
  name: users.name,
  profileImage: users.profileImage,
  userId: users.id,
};

export async function listAgents(db: Db, institutionId: string): Promise<AgentRecord[]> {
  return db
    .select(selection)
    .from(agents)
    .innerJoin(members, eq(members.id, agents.memberId))
    .innerJoin(users, eq(users.id, members.userId))
    .where(eq(agents.institutionId, institutionId))
    .orderBy(asc(agents.createdAt));
}

/** One agent of this workspace; 404 for an id of another workspace or none. */
export async function requireAgent(db: Db, institutionId: string, agentId: string): Promise<AgentRecord> {
  const [row] = await db
    .select(selection)
    .from(agents)
    .innerJoin(members, eq(members.id, agents.memberId))
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(agents.memberId, agentId), eq(agents.institutionId, institutionId)))
    .limit(1);
  if (!row) throw notFound('Agent not found');
  return row;
}

export async function createAgent(
  db: Db,
  institutionId: string,
  input: z.infer<typeof createAgentBody>,
): Promise<AgentRecord> {
  const memberId = randomUUID();
  const userId = randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(users).values({
      id: userId,
      email: agentEmail(memberId),
      name: input.name,
      profileImage: input.profileImage ?? null,
    });
    await tx.insert(members).values({ id: memberId, institutionId, userId, role: 'member', kind: 'agent' });
    await tx.insert(agents).values({
      memberId,
      institutionId,
      instructions: input.instructions,
      model: input.model ?? null,
      invokableBy: input.invokableBy,
      maxToolSteps: input.maxToolSteps,
      approveAllTools: input.approveAllTools,
    });
  });
  return requireAgent(db, institutionId, memberId);
}

export async function updateAgent(
  db: Db,
  institutionId: string,
  agentId: string,
  input: z.infer<typeof updateAgentBody>,
): Promise<AgentRecord> {
  const current = await requireAgent(db, institutionId, agentId);
  await db.transaction(async (tx) => {
    if (input.name !== undefined || input.profileImage !== undefined)
      await tx
        .update(users)
        .set({
          ...(input.name !== undefined && { name: input.name }),
          ...(input.profileImage !== undefined && { profileImage: input.profileImage }),
        })
        .where(eq(users.id, current.userId));
    const settings = {
      ...(input.instructions !== undefined && { instructions: input.instructions }),
      ...(input.model !== undefined && { model: input.model }),
      ...(input.invokableBy !== undefined && { invokableBy: input.invokableBy }),
      ...(input.maxToolSteps !== undefined && { maxToolSteps: input.maxToolSteps }),
      ...(input.approveAllTools !== undefined && { approveAllTools: input.approveAllTools }),
    };
    if (Object.keys(settings).length > 0)
      await tx.update(agents).set(settings).where(eq(agents.memberId, agentId));
  });
  return requireAgent(db, institutionId, agentId);
}

/** Removes the agent, its knowledge and memberships; its past messages stay (messages have no foreign key). */
export async function deleteAgent(db: Db, institutionId: string, agentId: string): Promise<void> {
  const current = await requireAgent(db, institutionId, agentId);
  await db.delete(users).where(eq(users.id, current.userId));
}
