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
  return db
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
    .limit(limit);
}
