// MCP routes: an agent's connections (/api/institutions/:id/agents/:agentId/mcp-connections), testing a
// connection without saving it (a few at a time), and the ready-made templates. Admins only.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { id, mcpConnectBody, mcpConnectionBody } from '../../schemas/protocol/index.ts';
import { requireWorkspaceAdmin } from '../access.ts';
import type { AppContext } from '../context.ts';
import { parseAllowlist } from '../mcp/allowlist.ts';
import { ConnectTests } from '../mcp/connect-tests.ts';
import {
  createConnection,
  deleteConnection,
  listConnections,
  testConnection,
  updateConnection,
} from '../mcp/connections.ts';
import { listTemplates } from '../mcp/templates.ts';
import { BODY_LIMITS } from '../request-limits.ts';
import { getAuth } from './auth-hook.ts';

const institutionParams = z.object({ id });
const agentParams = z.object({ id, agentId: id });
const connectionParams = z.object({ id, agentId: id, connId: id });
const base = '/api/institutions/:id/agents/:agentId/mcp-connections';

export function registerMcpRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Per server: the routes are registered once per createApp.
  const connectTests = new ConnectTests(ctx.config);
  app.get(base, async (request) => {
    const p = agentParams.parse(request.params);
    return { data: await listConnections(ctx, getAuth(request).userId, p.id, p.agentId) };
  });

  app.post(base, { bodyLimit: BODY_LIMITS.mcpConnection }, async (request, reply) => {
    const p = agentParams.parse(request.params);
    const body = mcpConnectionBody.parse(request.body);
    const connection = await createConnection(ctx, getAuth(request).userId, p.id, p.agentId, body);
    return reply.status(201).send({ connection });
  });

  app.put(`${base}/:connId`, { bodyLimit: BODY_LIMITS.mcpConnection }, async (request) => {
    const p = connectionParams.parse(request.params);
    const body = mcpConnectionBody.parse(request.body);
    return {
      connection: await updateConnection(ctx, getAuth(request).userId, p.id, p.agentId, p.connId, body),
    };
  });

  app.delete(`${base}/:connId`, async (request) => {
    const p = connectionParams.parse(request.params);
    return { connection: await deleteConnection(ctx, getAuth(request).userId, p.id, p.agentId, p.connId) };
  });

  app.post(
    '/api/institutions/:id/mcp-connections/connect',
    { bodyLimit: BODY_LIMITS.mcpConnection },
    async (request) => {
      const p = institutionParams.parse(request.params);
      const body = mcpConnectBody.parse(request.body);
      return testConnection(ctx, connectTests, getAuth(request).userId, p.id, body);
    },
  );

  app.get('/api/institutions/:id/mcp-templates', async (request) => {
    const p = institutionParams.parse(request.params);
    await requireWorkspaceAdmin(ctx.db, p.id, getAuth(request).userId);
    return { data: listTemplates(parseAllowlist(ctx.config.MCP_STDIO_ALLOWLIST)) };
  });
}
