// The passages of an agent's own knowledge that best match a question: english full-text search over its
// chunks only (never another agent's, never messages), the question's words joined with OR so a passage
// need not contain every word, best rank first.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { knowledgeChunks, knowledgeSources } from '../db/schema.ts';

export interface Passage {
  sourceId: string;
  title: string;
  content: string;
}

/** Words of a question that go into its search query. */
const QUERY_WORDS_MAX = 64;

/** Words of the question as a websearch OR query; quotes and operators are dropped so input cannot break it. */
export function orQuery(question: string): string {
  // Stops after the words it uses: a long question is not split whole into an array only to be cut.
  const words: string[] = [];
  for (const [word] of question.matchAll(/[\p{L}\p{N}]+/gu)) {
    words.push(word);
    if (words.length === QUERY_WORDS_MAX) break;
  }
  return words.join(' or ');
}

/**
 * The best passages, each text once: a passage whose middle is already inside one kept (the same document
 * added twice, or the overlap of a long paragraph's windows) is left out, so an answer never quotes a passage
 * twice.
 */
export function distinctPassages(ranked: readonly Passage[], limit: number): Passage[] {
  const kept: Passage[] = [];
  for (const passage of ranked) {
    if (kept.length === limit) break;
    const text = passage.content;
    const probe = text.slice(Math.floor(text.length / 3), Math.floor(text.length / 3) + 80);
    if (kept.some((k) => k.content.includes(probe) || passage.content.includes(k.content))) continue;
    kept.push(passage);
  }
  return kept;
}

export async function retrievePassages(
  db: Db,
  agentId: string,
  question: string,
  limit = 3,
): Promise<Passage[]> {
  const search = orQuery(question);
  if (!search) return [];
  const query = sql`websearch_to_tsquery('english', ${search})`;
  const vector = sql`to_tsvector('english', ${knowledgeChunks.content})`;
  const ranked = await db
    .select({
      sourceId: knowledgeChunks.sourceId,
      title: knowledgeSources.title,
      content: knowledgeChunks.content,
    })
    .from(knowledgeChunks)
    .innerJoin(knowledgeSources, eq(knowledgeSources.id, knowledgeChunks.sourceId))
    .where(
      and(
        eq(knowledgeChunks.agentId, agentId),
        eq(knowledgeSources.status, 'ready'),
        sql`${vector} @@ ${query}`,
      ),
    )
    .orderBy(desc(sql`ts_rank(${vector}, ${query})`), knowledgeChunks.position)
    .limit(limit * 3);
  return distinctPassages(ranked, limit);
}
