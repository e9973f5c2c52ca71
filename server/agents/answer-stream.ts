// The answer of one run as it is written: text arriving from the model, tool-call cards, citations and
// closing lines, kept in memory and stored as edits of the answer message, batched to at most a few per
// second (a model sends tokens far faster than a channel should receive edits).
import {
  type AgentAnswer,
  type AgentAnswerStatus,
  type AgentCitation,
  type AgentToolCall,
  TOOL_CALL_TEXT_MAX,
} from '../../schemas/protocol/index.ts';
import type { MessagesContext } from '../messages/context.ts';
import { schedulePushes } from '../push/notify.ts';
import { type AnswerTarget, escapeHtml, passageCitations, THINKING_HTML } from './answer.ts';
import { writeAnswer } from './answer-edit.ts';
import { markdownToHtml } from './answer-html.ts';
import type { Passage } from './retrieval.ts';

/** At most one stored edit per this many milliseconds while text streams in. */
export const EDIT_INTERVAL_MS = 350;

export const cutText = (text: string) =>
  text.length > TOOL_CALL_TEXT_MAX ? `${text.slice(0, TOOL_CALL_TEXT_MAX - 1)}…` : text;

/** The passages an answer cites: every [n] of its text that names a retrieved passage, in order of n. */
export function citedPassages(text: string, passages: Passage[]): AgentCitation[] {
  const cited = new Set<number>();
  for (const match of text.matchAll(/\[(\d{1,3})\]/g)) cited.add(Number(match[1]));
  return passageCitations(passages).filter((c) => cited.has(c.index));
}

/** A card still waiting or running when its run ends can no longer change: it failed. */
export function endOpenToolCalls(cards: AgentToolCall[]): AgentToolCall[] {
  return cards.map((c) =>
    c.status === 'awaiting_approval' || c.status === 'running'
      ? { ...c, status: 'failed', result: c.result ?? 'The run ended before this tool finished.' }
      : c,
  );
}

export class AnswerStream {
  /** The model's Markdown so far. */
  private text = '';
  /** Lines the run adds after the text (why it stopped, why it failed), as HTML paragraphs. */
  private notes: string[] = [];
  /** HTML that replaces the Markdown text (the no-model and tool-command answers are written as HTML). */
  private html: string | null = null;
  private toolCalls: AgentToolCall[] = [];
  private citations: AgentCitation[] = [];
  private passages: Passage[] = [];
  private status: AgentAnswerStatus = 'thinking';
  private timer: NodeJS.Timeout | null = null;
  private lastWrite = 0;
  private writing: Promise<void> = Promise.resolve();
  /** Set when a write found the answer already final: someone else closed it (a stopping server). */
  private closedElsewhere = false;
  /** The finished answer was handed to push once (a failure path may finish twice). */
  private pushed = false;

  constructor(
    private readonly ctx: MessagesContext,
    private readonly target: AnswerTarget,
    readonly messageId: string,
    private readonly runId: string,
    private readonly askerMemberId: string,
  ) {}

  /** The passages the model was given, numbered from 1; the ones its text cites become citations. */
  setPassages(passages: Passage[]): void {
    this.passages = passages;
  }

  get hasText(): boolean {
    return this.text.trim().length > 0 || this.html !== null;
  }

  appendText(delta: string): void {
    this.text += delta;
    if (this.status === 'thinking') this.status = 'streaming';
    this.schedule();
  }

  /** A break between the text of two model steps (text, then tools, then more text). */
  breakParagraph(): void {
    if (this.text.trim() && !this.text.endsWith('\n\n')) this.text += '\n\n';
  }

  setHtml(html: string): void {
    this.html = html;
  }

  setCitations(citations: AgentCitation[]): void {
    this.citations = citations;
  }

  addNote(line: string): void {
    this.notes.push(`<p><em>${escapeHtml(line)}</em></p>`);
  }

  /** Adds or replaces a card (same id); its texts are cut to the protocol's limit. */
  setToolCall(card: AgentToolCall): void {
    const cut = {
      ...card,
      arguments: cutText(card.arguments),
      result: card.result === null ? null : cutText(card.result),
    };
    const i = this.toolCalls.findIndex((c) => c.id === card.id);
    if (i === -1) this.toolCalls.push(cut);
    else this.toolCalls[i] = cut;
    const waiting = this.toolCalls.some((c) => c.status === 'awaiting_approval');
    if (waiting) this.status = 'awaiting_approval';
    else if (this.status === 'awaiting_approval' || this.status === 'thinking') this.status = 'streaming';
    this.schedule();
  }

  private content(final: boolean): string {
    const body = this.html ?? markdownToHtml(this.text);
    if (!body && this.notes.length === 0)
      return final ? '<p><em>The model gave no text answer.</em></p>' : THINKING_HTML;
    return body + this.notes.join('');
  }

  private answer(): AgentAnswer {
    return {
      runId: this.runId,
      status: this.status,
      askerMemberId: this.askerMemberId,
      toolCalls: this.toolCalls.map((c) => ({ ...c })),
      citations: this.html === null ? citedPassages(this.text, this.passages) : this.citations,
    };
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastWrite + EDIT_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch(() => undefined);
    }, wait);
  }

  /** Stores the current state now (writes are chained: one at a time, in order). */
  flush(final = false): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const content = this.content(final);
    const answer = this.answer();
    this.lastWrite = Date.now();
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        const write = await writeAnswer(this.ctx, this.target.channelId, this.messageId, content, answer);
        if ('skipped' in write && write.skipped === 'final') this.closedElsewhere = true;
      });
    return this.writing;
  }

  /** True when the answer was closed by someone else (its closer wrote the audit row too). */
  get wasClosedElsewhere(): boolean {
    return this.closedElsewhere;
  }

  /**
   * The last edit: status done or failed, everything stored. Then the one push of the answer (decision
   * 0035): its text arrives by edits, which never push, so the finished text is pushed here, as a reply to
   * the question — the asker gets it (unless they are reading the channel), like any reply to them.
   */
  async finish(status: 'done' | 'failed'): Promise<void> {
    this.status = status;
    this.toolCalls = endOpenToolCalls(this.toolCalls);
    const content = this.content(true);
    await this.flush(true);
    if (this.closedElsewhere || this.pushed) return;
    this.pushed = true;
    schedulePushes(this.ctx, {
      id: this.messageId,
      channelId: this.target.channelId,
      institutionId: this.target.institutionId,
      memberId: this.target.agentMemberId,
      content,
      replyTo: this.target.replyTo,
      mentions: [],
    });
  }
}
