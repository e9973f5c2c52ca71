// Full-text message search in a workspace over the database's generated plain_text column (tags stripped)
// and its GIN index: websearch syntax, best rank first and newest first on ties, with highlighted
// excerpts. Only live messages of channels the caller belongs to are searched.
import { and, desc, eq, getTableColumns, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { MessageSearchResponse } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { channelMembers, messages } from '../db/schema.ts';
import { toWireMessage } from '../messages/wire.ts';

// Private-use characters mark matches inside ts_headline's plain-text output; the text is escaped first
// and only then are they turned into <mark>, so message text can never inject markup into a highlight.
const START = '\uE000';
const STOP = '\uE001';
const HEADLINE_OPTIONS = `StartSel=${START}, StopSel=${STOP}, MaxWords=35, MinWords=15`;

export interface SearchInput {
  institutionId: string;
  memberId: string;
  search: string;
  page: number;
  limit: number;
}

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

export function highlightHtml(headline: string): string {
  return escapeHtml(headline).replaceAll(START, '<mark>').replaceAll(STOP, '</mark>');
}

export async function searchMessages(db: Db, input: SearchInput): Promise<MessageSearchResponse> {
  const query: SQL = sql`websearch_to_tsquery('simple', ${input.search})`;
  const vector: SQL = sql`to_tsvector('simple', ${messages.plainText})`;
  const where = and(
    eq(messages.institutionId, input.institutionId),
    isNull(messages.deletedAt),
    // Channels the caller is a member of: never a private channel or direct message they are not in.
    inArray(
      messages.channelId,
      db
        .select({ channelId: channelMembers.channelId })
        .from(channelMembers)
        .where(eq(channelMembers.memberId, input.memberId)),
    ),
    sql`${vector} @@ ${query}`,
  );
  const rank = sql<number>`ts_rank(${vector}, ${query})`;
  const rows = await db
    .select({
      ...getTableColumns(messages),
      rank,
      headline: sql<string>`ts_headline('simple', ${messages.plainText}, ${query}, ${HEADLINE_OPTIONS})`,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(messages)
    .where(where)
    .orderBy(desc(rank), desc(messages.createdAt), desc(messages.id))
    .limit(input.limit)
    .offset((input.page - 1) * input.limit);

  // Past the last page no row carries the window count, so count on its own.
  const total = rows[0]?.total ?? (input.page > 1 ? await countMatches(db, where) : 0);
  return {
    data: rows.map(({ rank: _rank, headline, total: _total, ...row }) => ({
      message: toWireMessage(row),
      highlight: highlightHtml(headline),
    })),
    metadata: {
      page: input.page,
      limit: input.limit,
      total,
      hasMore: input.page * input.limit < total,
    },
  };
}

async function countMatches(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(messages)
    .where(where);
  return row?.n ?? 0;
}
