// A post as the group commit hands it to a batch, and what the batch answers for it
// (./group-commit.ts, ./post-batch.ts, ./post-statement.ts).
import type { Message, PostMessagePayload } from '../../schemas/protocol/index.ts';
import type { ChannelAccess } from '../access.ts';
import type { HttpError } from '../errors.ts';

export interface BatchedPost {
  userId: string;
  input: PostMessagePayload;
}

export type BatchOutcome =
  | { kind: 'created'; message: Message; access: ChannelAccess }
  | { kind: 'repeat'; message: Message }
  | { kind: 'refused'; error: HttpError };
