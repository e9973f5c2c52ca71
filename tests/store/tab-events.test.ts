// A tab hears its worker's events down a port of its own (decision 0090), on a real Node MessageChannel as
// the browser's client has: the current state first, then every event in order, until the tab's life lock
// is released; then the port closes and the tab's open channel is forgotten.
import { describe, expect, it } from 'vitest';
import { forwardingApi, tabLockName, type WorkerApi, type WorkerEndpoint } from '../../worker/api.ts';
import { tabAttacher } from '../../worker/engine-host.ts';
import { type WorkerEvent, WorkerEventHub } from '../../worker/events.ts';
import { eventually } from '../server/messaging-world.ts';
import { FakeLocks } from './fake-locks.ts';

/** The worker's api as far as a closed tab needs it: every call recorded, each answered with nothing. */
function recordingApi(): { api: WorkerApi; calls: string[] } {
  const calls: string[] = [];
  const api = forwardingApi((method, args) => {
    calls.push(`${method} ${JSON.stringify(args)}`);
    return Promise.resolve(undefined) as never;
  });
  return { api, calls };
}

/** A tab: its life lock held until `close()`, and its end of the event port. */
function openTab(locks: FakeLocks, tabId: string) {
  const heard: WorkerEvent[] = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = ({ data }: MessageEvent<WorkerEvent>) => heard.push(data);
  let portClosed = false;
  channel.port1.addEventListener('close', () => {
    portClosed = true;
  });
  const release = locks.hold(tabLockName(tabId));
  return {
    heard,
    port: channel.port2,
    portClosed: () => portClosed,
    close() {
      release();
    },
    dispose() {
      channel.port1.close();
    },
  };
}

describe('worker events down a tab’s port', () => {
  it('sends the state first and every event in order, and stops when the tab closes', async () => {
    const locks = new FakeLocks();
    const hub = new WorkerEventHub({ connection: 'connecting' });
    const { api, calls } = recordingApi();
    const attach: WorkerEndpoint['attachTab'] = tabAttacher(Promise.resolve(hub), api, locks);
    const tab = openTab(locks, 'tab-1');
    const other = openTab(locks, 'tab-2');
    await attach('tab-1', tab.port);
    await attach('tab-2', other.port);

    hub.emit('connection', 'connected');
    hub.emit('uploadProgress', { uploadId: 'u1', loaded: 10, total: 20 });
    await eventually(() => tab.heard.length === 3);
    expect(tab.heard).toEqual([
      { name: 'connection', payload: 'connecting' },
      { name: 'connection', payload: 'connected' },
      { name: 'uploadProgress', payload: { uploadId: 'u1', loaded: 10, total: 20 } },
    ]);

    tab.close();
    await eventually(() => tab.portClosed());
    expect(calls).toEqual(['setOpenChannel ["tab-1",null]']);
    hub.emit('connection', 'offline');
    // The tab still open hears it; the closed one's port is gone and nothing more was sent down it.
    await eventually(() => other.heard.at(-1)?.payload === 'offline');
    expect(tab.heard).toHaveLength(3);
    tab.dispose();
    other.dispose();
  });

  it('refuses anything but a port', async () => {
    const locks = new FakeLocks();
    const hub = new WorkerEventHub({ connection: 'offline' });
    const attach = tabAttacher(Promise.resolve(hub), recordingApi().api, locks);
    await expect(attach('tab-x', ((event: WorkerEvent) => event) as never)).rejects.toThrow(
      'attachTab needs a MessagePort.',
    );
    await expect(attach('tab-y', { postMessage: () => {} } as never)).rejects.toThrow(/MessagePort/);
  });
});
