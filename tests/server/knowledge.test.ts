// Knowledge sources: text and uploaded files (real PDF and Word parsing) become searchable passages with a
// status; limits are refused with a clear error; deleting a source removes its passages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Agent,
  type ErrorBody,
  type FileEntity,
  type FileSignResponse,
  KNOWLEDGE_SOURCE_MAX_CHARS,
  KNOWLEDGE_SOURCES_PER_AGENT,
  type KnowledgeSource,
} from '../../schemas/protocol/index.ts';
import { retrievePassages } from '../../server/agents/retrieval.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import { makeDocx, makePdf } from './knowledge-documents.ts';
import { addMember, makeWorkspace, type Workspace } from './messaging-world.ts';

describe.each(databases)('knowledge sources (%s)', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let member: TestUser;

  beforeAll(async () => {
    t = await startTestServer(kind);
    ws = await makeWorkspace(t);
    member = await addMember(t, ws);
  });
  afterAll(() => t.close());

  async function newAgent(): Promise<Agent> {
    const res = await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, {
      name: 'Docs',
    });
    return res.body.agent;
  }
  const sourcesUrl = (agent: Agent) => `/api/institutions/${ws.id}/agents/${agent.id}/knowledge-sources`;

  async function upload(bytes: Buffer, fileName: string, fileType: string): Promise<FileEntity> {
    const sign = await ws.owner.api.get<FileSignResponse>(
      `/api/files/upload/sign?institutionId=${ws.id}&size=${bytes.length}&fileName=${fileName}&fileType=${encodeURIComponent(fileType)}`,
    );
    const put = await fetch(new URL(sign.body.uploadUrl, t.url), {
      method: 'PUT',
      headers: { 'content-type': fileType },
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(201);
    const res = await ws.owner.api.post<{ file: FileEntity }>('/api/files', {
      institutionId: ws.id,
      channelId: ws.general.id,
      fileName,
      fileType,
      fileSize: bytes.length,
      isFromThirdParty: false,
      fileKey: sign.body.fileKey,
    });
    expect(res.status).toBe(201);
    return res.body.file;
  }

  it('turns a long text into overlapping passages that full-text search finds', async () => {
    const agent = await newAgent();
    const filler = 'The cafeteria serves lunch between noon and two. '.repeat(40);
    const text = `${filler}Refunds are paid within fourteen days of a written request. ${filler}`;
    const res = await ws.owner.api.post<{ knowledgeSource: KnowledgeSource }>(sourcesUrl(agent), {
      type: 'text',
      title: 'Handbook',
      text,
    });
    expect(res.status).toBe(201);
    expect(res.body.knowledgeSource).toMatchObject({ title: 'Handbook', status: 'ready', error: null });
    expect(res.body.knowledgeSource.chunkCount).toBeGreaterThan(3);
    const [best] = await retrievePassages(t.ctx.db, agent.id, 'How long do refunds take?');
    expect(best?.content).toContain('Refunds are paid within fourteen days');
    expect(best?.content.length).toBeLessThanOrEqual(800);
    const listed = await member.api.get<{ knowledgeSources: KnowledgeSource[] }>(sourcesUrl(agent));
    expect(listed.body.knowledgeSources.map((s) => s.title)).toEqual(['Handbook']);
  });

  it('reads an uploaded PDF and an uploaded Word document', async () => {
    const agent = await newAgent();
    const pdf = await upload(
      makePdf('The boiler room key hangs in the porch cupboard.'),
      'keys.pdf',
      'application/pdf',
    );
    const docx = await upload(
      await makeDocx('Parking permits are renewed every March.'),
      'parking.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    for (const file of [pdf, docx]) {
      const res = await ws.owner.api.post<{ knowledgeSource: KnowledgeSource }>(sourcesUrl(agent), {
        type: 'file',
        fileId: file.id,
      });
      expect(res.status).toBe(201);
      expect(res.body.knowledgeSource).toMatchObject({ type: 'file', title: file.fileName, status: 'ready' });
    }
    expect((await retrievePassages(t.ctx.db, agent.id, 'boiler key'))[0]?.title).toBe('keys.pdf');
    expect((await retrievePassages(t.ctx.db, agent.id, 'parking permit'))[0]?.title).toBe('parking.docx');
  });

  it('marks a file it cannot read as failed, with the reason', async () => {
    const agent = await newAgent();
    const image = await upload(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'cat.png', 'image/png');
    const res = await ws.owner.api.post<{ knowledgeSource: KnowledgeSource }>(sourcesUrl(agent), {
      type: 'file',
      fileId: image.id,
    });
    expect(res.body.knowledgeSource.status).toBe('failed');
    expect(res.body.knowledgeSource.error).toMatch(/PDF, Word/);
  });

  it('refuses a document over the size limit and a source past the count limit', async () => {
    const agent = await newAgent();
    const big = await ws.owner.api.post<ErrorBody>(sourcesUrl(agent), {
      type: 'text',
      title: 'Big',
      text: 'a'.repeat(KNOWLEDGE_SOURCE_MAX_CHARS + 1),
    });
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/at most/);
    for (let i = 0; i < KNOWLEDGE_SOURCES_PER_AGENT; i++)
      await ws.owner.api.post(sourcesUrl(agent), { type: 'text', title: `Note ${i}`, text: `note ${i}` });
    const over = await ws.owner.api.post<ErrorBody>(sourcesUrl(agent), {
      type: 'text',
      title: 'One more',
      text: 'x',
    });
    expect(over.status).toBe(400);
    expect(over.body.message).toMatch(/at most/);
  });

  it('answers bad input with 400 and refuses members', async () => {
    const agent = await newAgent();
    expect((await ws.owner.api.post(sourcesUrl(agent), { type: 'text', title: '', text: 'x' })).status).toBe(
      400,
    );
    expect((await ws.owner.api.post(sourcesUrl(agent), { type: 'fax' })).status).toBe(400);
    expect((await member.api.post(sourcesUrl(agent), { type: 'text', title: 'a', text: 'b' })).status).toBe(
      403,
    );
  });

  it('deletes a source and its passages', async () => {
    const agent = await newAgent();
    const res = await ws.owner.api.post<{ knowledgeSource: KnowledgeSource }>(sourcesUrl(agent), {
      type: 'text',
      title: 'Temp',
      text: 'The wifi password is written on the whiteboard.',
    });
    expect(await retrievePassages(t.ctx.db, agent.id, 'wifi password')).toHaveLength(1);
    const del = await ws.owner.api.delete(`${sourcesUrl(agent)}/${res.body.knowledgeSource.id}`);
    expect(del.status).toBe(200);
    expect(await retrievePassages(t.ctx.db, agent.id, 'wifi password')).toHaveLength(0);
    expect((await ws.owner.api.delete(`${sourcesUrl(agent)}/${res.body.knowledgeSource.id}`)).status).toBe(
      404,
    );
  });
});
