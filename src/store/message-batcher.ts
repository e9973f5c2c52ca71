// Pulled pages written together: a reconnect pulls every channel at once, and each page written on its
// own pays a store transaction's fixed cost (on IndexedDB most of the time) per channel. Pages that
// arrive while a write is in flight share the next one, up to a bound so that one write never holds
// the store (and every tab's live queries) for long.
import type { Message } from '../../schemas/protocol/index.ts';
import { applyServerMessages, type MessageCollections } from './messages.ts';

/** Messages per shared write; a page larger than this is still written whole. */
const BATCH_MESSAGES = 1000;

interface WaitingPage {
  messages: readonly Message[];
  /** Written on its own, so that it is not held up by the size of the pages behind it. */
  alone?: boolean;
  resolve(): void;
  reject(error: unknown): void;
}

/** Told of the messages a write added to the store (not those it only updated), once they are stored. */
export type OnStored = (added: readonly Message[]) => Promise<void>;

export class MessageBatcher {
  private readonly db: MessageCollections;
  private readonly onStored: OnStored | undefined;
  private waiting: WaitingPage[] = [];
  private writing = false;

  constructor(db: MessageCollections, onStored?: OnStored) {
    this.db = db;
    this.onStored = onStored;
  }

  /** Resolves once the page is in the store (as applyServerMessages would have left it). */
  apply(messages: readonly Message[]): Promise<void> {
    if (!messages.length) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiting.push({ messages, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  /**
   * Ahead of every page waiting, in a write of its own (an open channel's newest messages, decision 0061):
   * the next write, as small as it can be, since the screen waits for it.
   */
  applyFirst(messages: readonly Message[]): Promise<void> {
    if (!messages.length) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiting.unshift({ messages, alone: true, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  /** Several pages at once (a catch-up's answer): they share one write. One promise per page. */
  applyEach(pages: readonly (readonly Message[])[]): Promise<void>[] {
    const done = pages.map((messages) =>
      messages.length
        ? new Promise<void>((resolve, reject) => this.waiting.push({ messages, resolve, reject }))
        : Promise.resolve(),
    );
    if (!this.writing && this.waiting.length) void this.drain();
    return done;
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length) {
        let count = 0;
        let take = 0;
        const alone = this.waiting[0]?.alone === true;
        while (take < this.waiting.length && (take === 0 || (!alone && count < BATCH_MESSAGES))) {
          count += this.waiting[take]?.messages.length ?? 0;
          take += 1;
        }
        await this.write(this.waiting.splice(0, take));
      }
    } finally {
      this.writing = false;
    }
  }

  private async write(batch: WaitingPage[]): Promise<void> {
    try {
      await this.store(batch.flatMap((p) => p.messages));
      for (const page of batch) page.resolve();
    } catch (error) {
      if (batch.length === 1) return batch[0]?.reject(error);
      // Page by page, so a page the store refuses holds up only its own channel's pull.
      for (const page of batch) await this.store(page.messages).then(page.resolve, page.reject);
    }
  }

  private async store(messages: readonly Message[]): Promise<void> {
    const added = await applyServerMessages(this.db, messages);
    if (this.onStored && added.size) await this.onStored(messages.filter((m) => added.has(m.genId)));
  }
}
