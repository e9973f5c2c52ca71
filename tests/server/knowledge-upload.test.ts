// A document sent straight to an agent (the settings' upload): read into a source from the request body,
// never kept as a file, so it shows up in no channel's files; limits, bad input and roles are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, ErrorBody, FilesResponse, KnowledgeSource } from '../../schemas/protocol/index.ts';
import { retrievePassages } from '../../server/agents/retrieval.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import { makeDocx, makePdf } from './knowledge-documents.ts';
import { addMember, makeWorkspace, type Workspace } from './messaging-world.ts';

const FILE_MAX_BYTES = 64 * 1024;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe.each(databases)('knowledge uploads (%s)', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let member: TestUser;
  let agent: Agent;

  beforeAll(async () => {
    t = await startTestServer(kind, { env: { FILE_MAX_BYTES: String(FILE_MAX_BYTES) } });
    ws = await makeWorkspace(t);
    member = await addMember(t, ws);
    const res = await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, {
      name: 'Docs',
    });
    agent = res.body.agent;
  });
  afterAll(() => t.close());

  const uploadUrl = (query: string) =>
    `${t.url}/api/institutions/${ws.id}/agents/${agent.id}/knowledge-sources/upload?${query}`;

  async function send(user: TestUser, query: string, bytes: Buffer, type: string) {
    const res = await fetch(uploadUrl(query), {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': type },
      body: new Uint8Array(bytes),
    });
    return {
      status: res.status,
      body: (await res.json()) as { knowledgeSource: KnowledgeSource } & ErrorBody,
    };
  }

  it('reads a PDF, a Word document and Markdown from the body, and keeps no file anywhere', async () => {
    const pdf = await send(
      ws.owner,
      'fileName=keys.pdf',
      makePdf('The boiler room key hangs in the porch cupboard.'),
      'application/pdf',
    );
    expect(pdf.status).toBe(201);
    expect(pdf.body.knowledgeSource).toMatchObject({ type: 'file', title: 'keys.pdf', status: 'ready' });
    const docx = await send(
      ws.owner,
      'fileName=parking.docx&title=Parking%20rules',
      await makeDocx('Parking permits are renewed every March.'),
      DOCX,
    );
    expect(docx.body.knowledgeSource).toMatchObject({ title: 'Parking rules', status: 'ready' });
    const md = await send(
      ws.owner,
      'fileName=lunch.md',
      Buffer.from('# Lunch\n\nThe canteen opens at **noon**.'),
      'text/markdown; charset=utf-8',
    );
    expect(md.body.knowledgeSource.status).toBe('ready');

    expect((await retrievePassages(t.ctx.db, agent.id, 'boiler key'))[0]?.title).toBe('keys.pdf');
    expect((await retrievePassages(t.ctx.db, agent.id, 'parking permit'))[0]?.title).toBe('Parking rules');
    expect((await retrievePassages(t.ctx.db, agent.id, 'canteen noon'))[0]?.title).toBe('lunch.md');
    const files = await ws.owner.api.get<FilesResponse>(`/api/institutions/${ws.id}/files`);
    expect(files.body.data).toEqual([]);
  });

  it('marks a document it cannot read as failed, with the reason', async () => {
    const png = await send(ws.owner, 'fileName=cat.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png');
    expect(png.status).toBe(201);
    expect(png.body.knowledgeSource.status).toBe('failed');
    expect(png.body.knowledgeSource.error).toMatch(/PDF, Word/);
  });

  it('refuses a body over the file size limit, an empty body and a missing name', async () => {
    const big = await send(ws.owner, 'fileName=big.txt', Buffer.alloc(FILE_MAX_BYTES + 1, 97), 'text/plain');
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/too large|at most/i);
    const empty = await send(ws.owner, 'fileName=empty.txt', Buffer.alloc(0), 'text/plain');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('The file is empty');
    const nameless = await send(ws.owner, 'title=x', Buffer.from('text'), 'text/plain');
    expect(nameless.status).toBe(400);
  });

  it('lets only owners and admins upload, and only to an agent of their workspace', async () => {
    const refused = await send(member, 'fileName=a.txt', Buffer.from('text'), 'text/plain');
    expect(refused.status).toBe(403);
    const other = await makeWorkspace(t, 'Elsewhere');
    const res = await fetch(
      `${t.url}/api/institutions/${other.id}/agents/${agent.id}/knowledge-sources/upload?fileName=a.txt`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${other.owner.token}`, 'content-type': 'text/plain' },
        body: 'text',
      },
    );
    expect(res.status).toBe(404);
    const anonymous = await fetch(uploadUrl('fileName=a.txt'), { method: 'POST', body: 'text' });
    expect(anonymous.status).toBe(401);
  });
});
