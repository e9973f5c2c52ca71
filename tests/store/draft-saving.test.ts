// A composer's draft is written by the worker its tab talks to (decision 0072), on real stores
// (fake-indexeddb) and over comlink as in a browser: kept, replaced and removed by the spec's rule
// (§4, §5), a malformed one refused with a sentence, and a tab whose worker has retired still keeps what
// was typed, in its own store, until it reloads.
import { randomUUID } from 'node:crypto';
import { expose, type Remote, wrap } from 'comlink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attachment } from '../../schemas/protocol/index.ts';
import { markOutdated } from '../../src/data/app-version.ts';
import { requireClient, startClient } from '../../src/data/client.ts';
import { saveDraft } from '../../src/data/drafts.ts';
import { type LanternDatabase, openLanternDatabase } from '../../src/store/database.ts';
import type { DraftWrite } from '../../src/store/drafts.ts';
import type { WorkerEndpoint } from '../../worker/api.ts';
import { storeReadHandlers } from '../../worker/store-watches.ts';
import { storeWriteHandlers } from '../../worker/store-writes.ts';

const attachment = (fileName: string, isUploading: boolean): Attachment => ({
  id: randomUUID(),
  fileName,
  fileType: 'text/plain',
  fileSize: 3,
  url: isUploading ? null : `/files/${fileName}`,
  isUploading,
});

const draftIn = async (db: LanternDatabase, channelId: string) =>
  (await db.drafts.findOne(channelId).exec())?.toJSON() ?? null;

describe("the worker's draft writes", () => {
  let db: LanternDatabase;
  beforeAll(async () => {
    db = await openLanternDatabase(`draft-writes-${randomUUID()}`, { collections: ['drafts'] });
  });
  afterAll(async () => {
    await db.close();
  });

  it('keeps a draft, replaces it, and removes it once only empty markup is left', async () => {
    const handlers = storeWriteHandlers(async () => db);
    const draft = { institutionId: 'ws-1', channelId: 'ch-1', attachments: [] };
    await handlers.saveDraft({ ...draft, content: '<p>Half a thought</p>' });
    expect(await draftIn(db, 'ch-1')).toMatchObject({
      institutionId: 'ws-1',
      content: '<p>Half a thought</p>',
    });
    await handlers.saveDraft({ ...draft, content: '<p>Half a thought, finished</p>' });
    expect(await draftIn(db, 'ch-1')).toMatchObject({ content: '<p>Half a thought, finished</p>' });
    await handlers.saveDraft({ ...draft, content: '<p></p><p> </p>' });
    expect(await draftIn(db, 'ch-1')).toBeNull();
  });

  it('keeps the uploaded attachments of a draft and leaves out those still uploading', async () => {
    const handlers = storeWriteHandlers(async () => db);
    const done = attachment('notes.txt', false);
    await handlers.saveDraft({
      institutionId: 'ws-1',
      channelId: 'ch-2',
      content: '',
      attachments: [done, attachment('big.txt', true)],
    });
    expect((await draftIn(db, 'ch-2'))?.attachments).toEqual([done]);
    // Only an upload in progress: nothing worth keeping.
    await handlers.saveDraft({
      institutionId: 'ws-1',
      channelId: 'ch-3',
      content: '',
      attachments: [attachment('big.txt', true)],
    });
    expect(await draftIn(db, 'ch-3')).toBeNull();
  });

  it('refuses a draft without its channel or content, and stores nothing', async () => {
    const handlers = storeWriteHandlers(async () => db);
    const before = await db.drafts.count().exec();
    for (const bad of [
      { institutionId: 'ws-1', channelId: '', content: '<p>x</p>', attachments: [] },
      { institutionId: 'ws-1', channelId: 'ch-4', content: 42, attachments: [] },
      { institutionId: 'ws-1', channelId: 'ch-4', content: '<p>x</p>' },
      { institutionId: 'ws-1', channelId: 'ch-4', content: '<p>x</p>', attachments: [null] },
      null,
    ])
      await expect(handlers.saveDraft(bad as unknown as DraftWrite)).rejects.toThrow(
        'A draft needs its workspace, its channel, its content and its attachments.',
      );
    expect(await db.drafts.count().exec()).toBe(before);
  });
});

describe("a tab's draft", () => {
  const id = randomUUID();
  let workerDb: LanternDatabase;
  let workerPort: MessagePort;

  beforeAll(async () => {
    // The worker's store and the tab's are kept apart here (in a browser they are one IndexedDB database),
    // so each test can tell which of them wrote. RxDB opens at most 16 collections at once in a process:
    // the worker's store holds only what this tab asks of it.
    workerDb = await openLanternDatabase(`draft-saving-worker-${id}`, { collections: ['drafts', 'session'] });
    const store = async () => workerDb;
    // The worker's store handlers as the SharedWorker serves them (worker/engine-host.ts), over comlink;
    // its engine (socket, outbox) plays no part in a draft and is left out.
    const endpoint: Partial<WorkerEndpoint> = {
      attachTab: async () => {},
      sessionChanged: async () => {},
      ...storeReadHandlers(store, null),
      ...storeWriteHandlers(store),
    };
    const channel = new MessageChannel();
    workerPort = channel.port2;
    expose(endpoint, channel.port2);
    await startClient({
      databaseName: `draft-saving-tab-${id}`,
      worker: wrap<WorkerEndpoint>(channel.port1) as Remote<WorkerEndpoint>,
    });
  });

  afterAll(async () => {
    await (await requireClient()).db.close();
    await workerDb.close();
  });

  it("is written by the worker, not on the tab's own thread", async () => {
    await saveDraft('ws-1', 'ch-1', { content: '<p>Typed in the composer</p>', attachments: [] });
    expect(await draftIn(workerDb, 'ch-1')).toMatchObject({ content: '<p>Typed in the composer</p>' });
    expect(await draftIn((await requireClient()).db, 'ch-1')).toBeNull();
  });

  it("is kept in the tab's own store once its worker has retired (a newer build started)", async () => {
    // The retired worker closes: a call to it is never answered.
    workerPort.close();
    const saving = saveDraft('ws-1', 'ch-2', { content: '<p>Typed as the worker went</p>', attachments: [] });
    await new Promise((r) => setTimeout(r, 100));
    // The worker told its tabs before it went (worker/retirement.ts): the tab is outdated.
    markOutdated();
    await saving;
    const tabDb = (await requireClient()).db;
    expect(await draftIn(tabDb, 'ch-2')).toMatchObject({ content: '<p>Typed as the worker went</p>' });
    // Every later keystroke too, straight into the tab's store.
    await saveDraft('ws-1', 'ch-2', {
      content: '<p>Typed as the worker went, and after</p>',
      attachments: [],
    });
    expect(await draftIn(tabDb, 'ch-2')).toMatchObject({
      content: '<p>Typed as the worker went, and after</p>',
    });
    expect(await draftIn(workerDb, 'ch-2')).toBeNull();
  });
});
