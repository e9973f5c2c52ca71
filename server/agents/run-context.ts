// What a model is told for one run: the agent's instructions, the recent messages of the channel where it
// was asked (that channel only, which the asker can read), and the best passages of the agent's own
// knowledge numbered [1]..[n] to cite. Nothing from another channel, and no connection's variables.
import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import type { Message } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { channels, members, messages, users } from '../db/schema.ts';
import { htmlToText } from './extract.ts';
import type { Passage } from './retrieval.ts';

/** Messages of the channel given as context before the question. */
export const HISTORY_MESSAGES = 20;
/** Longest text of one message in the context: a pasted log must not crowd out the rest. */
const MESSAGE_CHARS = 2_000;

export interface RunContext {
  system: string;
  prompt: string;
}

export interface ContextInput {
  agentName: string;
  instructions: string;
  askerName: string;
  question: Message;
  passages: Passage[];
  /** Tools that could not be offered (a connection that did not start), so the model can say so. */
  unavailable: string[];
}

const clip = (text: string) => (text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS)}…` : text);

/** The channel's last messages before the question, oldest first, as "Name: text" lines. */
export async function recentMessages(db: Db, question: Message): Promise<string[]> {
  const rows = await db
    .select({ name: users.name, content: messages.content })
    .from(messages)
    .innerJoin(members, eq(members.id, messages.memberId))
    .innerJoin(users, eq(users.id, members.userId))
    .where(
      and(
        eq(messages.channelId, question.channelId),
        isNull(messages.deletedAt),
        lt(messages.createdSeq, question.createdSeq),
      ),
    )
    .orderBy(desc(messages.createdSeq))
    .limit(HISTORY_MESSAGES);
  return rows
    .reverse()
    .map((r) => ({ name: r.name, text: htmlToText(r.content).replace(/\s+/g, ' ').trim() }))
    .filter((r) => r.text)
    .map((r) => `${r.name}: ${clip(r.text)}`);
}

export async function channelLabel(db: Db, channelId: string): Promise<string> {
  const [row] = await db
    .select({ name: channels.name, type: channels.type })
    .from(channels)
    .where(eq(channels.id, channelId))
    .limit(1);
  if (!row) return 'this conversation';
  return row.type === 'direct_message' ? 'a direct conversation' : `#${row.name}`;
}

export async function buildRunContext(db: Db, input: ContextInput): Promise<RunContext> {
  const where = await channelLabel(db, input.question.channelId);
  const history = await recentMessages(db, input.question);
  const knowledge = input.passages.length
    ? input.passages.map((p, i) => `[${i + 1}] ${p.title}\n${p.content}`).join('\n\n')
    : '(no passage of your knowledge matches this question)';
  const system = [
    `You are ${input.agentName}, an assistant in the team chat Lantern, answering ${input.askerName} in ${where}.`,
    input.instructions.trim(),
    'Answer briefly in Markdown. When you use a knowledge passage, cite it as [n] right after the sentence, using its number below; cite nothing else and never invent a number. If neither the passages nor your tools give the answer, say so plainly.',
    `Knowledge passages:\n${knowledge}`,
    ...(input.unavailable.length
      ? [`Tools that could not be reached for this answer: ${input.unavailable.join('; ')}.`]
      : []),
  ]
    .filter(Boolean)
    .join('\n\n');
  const question = clip(htmlToText(input.question.content).replace(/\s+/g, ' ').trim());
  const prompt = [
    `Recent messages in ${where}, oldest first:`,
    ...history,
    '',
    `Question from ${input.askerName}: ${question}`,
  ].join('\n');
  return { system, prompt };
}
