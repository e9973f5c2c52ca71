// The sender of queued posts and new polls: sends one over the socket once a post's files are uploaded
// and classifies the answer (acknowledgement.ts records it). The genId is the idempotency key.
import type { OutboxDoc, PollCreateOperation, PostOperation } from '../schemas/collections.ts';
import type { SendResult } from '../src/store/outbox-state.ts';
import { resolveAttachments } from '../src/store/uploads.ts';
import { classifyAck } from './acknowledgement.ts';
import { emitWithAck, type LanternSocket } from './socket.ts';
import type { SyncDatabase } from './sync-database.ts';
import type { Uploader } from './uploader.ts';

export interface PostSenderDeps {
  db: SyncDatabase;
  socket: LanternSocket;
  ackTimeoutMs: number;
  uploader: Uploader;
}

export async function sendPost(
  deps: PostSenderDeps,
  entry: OutboxDoc,
  op: PostOperation | PollCreateOperation,
): Promise<SendResult> {
  const { socket, ackTimeoutMs } = deps;
  const ref = { institutionId: entry.institutionId, channelId: entry.channelId };
  try {
    if (op.kind === 'pollCreate') {
      const { question, options, multiple } = op;
      return classifyAck(
        await emitWithAck(
          socket,
          'createPoll',
          { ...ref, opId: op.opId, genId: entry.genId, question, options, multiple },
          ackTimeoutMs,
        ),
      );
    }
    const attachments = await postAttachments(deps, op);
    if (attachments.kind !== 'ready') return attachments.result;
    const ack = await emitWithAck(
      socket,
      'postMessage',
      {
        ...ref,
        genId: entry.genId,
        content: op.content,
        replyTo: op.replyTo,
        attachments: attachments.attachments,
        mentions: op.mentions,
      },
      ackTimeoutMs,
    );
    return classifyAck(ack);
  } catch (error) {
    return classifyAck(undefined, error);
  }
}

type PostAttachments =
  | { kind: 'ready'; attachments: PostOperation['attachments'] }
  | { kind: 'blocked'; result: SendResult };

/**
 * A post goes only once its files are uploaded and registered: an upload still queued is started now
 * (the channel's later rows wait behind it, keeping the order); a failed one fails the post ("Upload
 * failed", Retry retries the upload too).
 */
async function postAttachments(deps: PostSenderDeps, op: PostOperation): Promise<PostAttachments> {
  if (!op.attachments.some((a) => a.isUploading)) return { kind: 'ready', attachments: op.attachments };
  const records = deps.db.records;
  let state = await resolveAttachments({ records }, op.attachments);
  if (state.kind === 'waiting') {
    for (const id of state.ids) await deps.uploader.upload(id);
    state = await resolveAttachments({ records }, op.attachments);
  }
  if (state.kind === 'ready') return { kind: 'ready', attachments: state.attachments };
  // Retry uploads the files again (retryMessage), which may go through now.
  if (state.kind === 'failed')
    return { kind: 'blocked', result: { kind: 'error', message: state.message, retryable: true } };
  return { kind: 'blocked', result: { kind: 'transient', reason: 'waiting for uploads' } };
}
