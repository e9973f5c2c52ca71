// The opening text of Word and PowerPoint attachments (issue 15 item 6): read with the real parsers in a
// worker thread, only for people who may read the file, null for other kinds and for damaged documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileEntity, FileExcerptResponse, FileSignResponse } from '../../schemas/protocol/index.ts';
import { excerptOf } from '../../server/files/file-excerpt.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import { makeDocx, makePdf, makePptx } from './knowledge-documents.ts';
import { addMember, makeChannel, makeWorkspace, postFiles, type Workspace } from './messaging-world.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

describe.each(databases)('file excerpts (%s)', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let member: TestUser;
  let stranger: TestUser;

  async function upload(by: TestUser, channelId: string, bytes: Buffer, fileName: string, fileType: string) {
    const sign = await by.api.get<FileSignResponse>(
      `/api/files/upload/sign?institutionId=${ws.id}&size=${bytes.length}&fileType=${encodeURIComponent(fileType)}`,
    );
    expect(sign.status).toBe(200);
    const put = await fetch(new URL(sign.body.uploadUrl, t.url), {
      method: 'PUT',
      headers: { 'content-type': fileType },
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(201);
    const res = await by.api.post<{ file: FileEntity }>('/api/files', {
      institutionId: ws.id,
      channelId,
      fileName,
      fileType,
      fileSize: bytes.length,
      fileKey: sign.body.fileKey,
    });
    expect(res.status).toBe(201);
    // Sent in a message: the channel's members may read it from then on.
    await postFiles(by, ws, channelId, [res.body.file]);
    return res.body.file;
  }

  const excerpt = (by: TestUser, file: FileEntity) =>
    by.api.get<FileExcerptResponse>(`/api/files/${file.id}/excerpt`);

  beforeAll(async () => {
    t = await startTestServer(kind);
    ws = await makeWorkspace(t);
    member = await addMember(t, ws);
    stranger = (await makeWorkspace(t, 'Elsewhere')).owner;
  });
  afterAll(() => t.close());

  it('gives the opening text of a Word document and of a presentation, slides in order', async () => {
    const docx = await upload(
      ws.owner,
      ws.general.id,
      await makeDocx('Term plan: week one is fractions.'),
      'plan.docx',
      DOCX,
    );
    expect((await excerpt(member, docx)).body).toEqual({ excerpt: 'Term plan: week one is fractions.' });

    const slides = Array.from({ length: 10 }, (_, i) => [`Slide ${i + 1} title`]);
    slides[0] = ['Harbour tour', 'Meet at the quay &amp; bring boots'];
    const pptx = await upload(ws.owner, ws.general.id, await makePptx(slides), 'tour.pptx', PPTX);
    const res = await excerpt(member, pptx);
    expect(res.status).toBe(200);
    expect(res.body.excerpt).toMatch(
      /^Harbour tour Meet at the quay & bring boots Slide 2 title Slide 3 title/,
    );
    expect(res.body.excerpt).toMatch(/Slide 10 title$/);
  });

  it('has no excerpt for other kinds of file, nor for a damaged document', async () => {
    const pdf = await upload(
      ws.owner,
      ws.general.id,
      makePdf('A PDF has its own preview'),
      'a.pdf',
      'application/pdf',
    );
    expect((await excerpt(member, pdf)).body).toEqual({ excerpt: null });
    const broken = await upload(
      ws.owner,
      ws.general.id,
      Buffer.from('not a zip at all'),
      'broken.docx',
      DOCX,
    );
    const res = await excerpt(member, broken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ excerpt: null });
  });

  it('answers only those who may read the file', async () => {
    const secret = await makeChannel(ws.owner, ws, 'private');
    const file = await upload(ws.owner, secret.id, await makeDocx('Salaries for next year'), 's.docx', DOCX);
    for (const outsider of [member, stranger]) {
      const res = await excerpt(outsider, file);
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('Salaries');
    }
    expect((await excerpt(ws.owner, file)).body).toEqual({ excerpt: 'Salaries for next year' });
    expect((await member.api.get('/api/files/no-such-file/excerpt')).status).toBe(404);
    expect((await member.api.get(`/api/files/${'x'.repeat(65)}/excerpt`)).status).toBe(400);
  });
});

describe('excerptOf', () => {
  it('collapses whitespace and cuts a long text at a word, with an ellipsis', () => {
    expect(excerptOf('  One\n\ntwo   three ')).toBe('One two three');
    expect(excerptOf('alpha beta gamma delta', 12)).toBe('alpha beta…');
    expect(excerptOf(' \n ')).toBeNull();
  });
});
