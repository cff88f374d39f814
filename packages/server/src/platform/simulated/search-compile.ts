import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Atom, SearchFilter, SearchQuery, Term } from './search-query.js';
import { parseJson, type StoredEntities, type StoredMedia, type TweetRow } from './stored.js';

/** A tweet row with the author fields a search needs. */
export type SearchRow = TweetRow & { author_verified: bigint | number };

/** A search in SQL and, where SQL can only approximate it, in JavaScript. */
export interface CompiledSearch {
  /** A condition every match satisfies (exact when `exact` is undefined). */
  where?: RawBuilder<SqlBool>;
  /** The exact test, when some condition (word boundaries, negated words) has no exact SQL form. */
  exact?: (row: SearchRow) => boolean;
}

interface CompiledAtom {
  /** SQL for the atom: exact, or a necessary condition when `approximate`. */
  sql?: RawBuilder<SqlBool>;
  approximate: boolean;
  test: (row: SearchRow, entities: () => StoredEntities) => boolean;
}

const TRUE = sql<SqlBool>`1 = 1`;
const FALSE = sql<SqlBool>`1 = 0`;

/**
 * Compiles a parsed search against `sim_tweets as t` joined with `sim_users as a`. `userIds` maps the
 * lower-cased usernames the query names (from:, to:, @) to ids; an unknown username matches nothing.
 */
export function compileSearch(query: SearchQuery, userIds: ReadonlyMap<string, string>): CompiledSearch {
  const conditions: RawBuilder<SqlBool>[] = [];
  const tests: ((row: SearchRow, entities: () => StoredEntities) => boolean)[] = [];
  let exact = true;
  for (const clause of query) {
    const terms = clause.map((t) => compileTerm(t, userIds));
    const sqls = terms.map((t) => t.sql);
    if (sqls.every((s): s is RawBuilder<SqlBool> => s !== undefined)) {
      conditions.push(
        sqls.length === 1 ? (sqls[0] as RawBuilder<SqlBool>) : sql<SqlBool>`(${sql.join(sqls, sql` or `)})`,
      );
    }
    if (terms.some((t) => t.approximate || !t.sql)) exact = false;
    tests.push((row, entities) => terms.some((t) => t.test(row, entities)));
  }
  const where = conditions.length ? sql<SqlBool>`(${sql.join(conditions, sql` and `)})` : undefined;
  if (exact) return where ? { where } : {};
  const test = (row: SearchRow) => {
    let cached: StoredEntities | undefined;
    const entities = () => {
      cached ??= parseJson<StoredEntities>(row.entities) ?? {};
      return cached;
    };
    return tests.every((t) => t(row, entities));
  };
  return where ? { where, exact: test } : { exact: test };
}

function compileTerm(term: Term, userIds: ReadonlyMap<string, string>): CompiledAtom {
  const atom = compileAtom(term.atom, userIds);
  if (!term.negated) return atom;
  return {
    ...(atom.sql && !atom.approximate && { sql: sql<SqlBool>`not (${atom.sql})` }),
    approximate: false,
    test: (row, entities) => !atom.test(row, entities),
  };
}

function compileAtom(atom: Atom, userIds: ReadonlyMap<string, string>): CompiledAtom {
  switch (atom.kind) {
    case 'word':
    case 'phrase': {
      const re = wordPattern(atom.value);
      return {
        sql: like(sql`lower(${sql.ref('t.text')})`, atom.value),
        approximate: true,
        test: (row) => re.test(row.text.toLowerCase()),
      };
    }
    case 'from': {
      const id = userIds.get(atom.value);
      return exactAtom(id ? sql`${sql.ref('t.author_id')} = ${id}` : FALSE, (row) => row.author_id === id);
    }
    case 'to': {
      const id = userIds.get(atom.value);
      return exactAtom(
        id ? sql`coalesce(${sql.ref('t.in_reply_to_user_id')}, '') = ${id}` : FALSE,
        (row) => id !== undefined && row.in_reply_to_user_id === id,
      );
    }
    case 'mention': {
      const id = userIds.get(atom.value);
      const byName = like(sql`lower(${sql.ref('t.entities')})`, `"username":"${atom.value}"`);
      return exactAtom(
        id ? sql<SqlBool>`(${byName} or ${like(sql.ref('t.entities'), `"id":"${id}"`)})` : byName,
        (_row, entities) =>
          (entities().mentions ?? []).some(
            (m) => m.username.toLowerCase() === atom.value || (id !== undefined && m.id === id),
          ),
      );
    }
    case 'hashtag':
    case 'cashtag': {
      const key = atom.kind === 'hashtag' ? 'hashtags' : 'cashtags';
      return {
        sql: like(sql`lower(${sql.ref('t.entities')})`, `{"text":"${atom.value}"}`),
        approximate: true,
        test: (_row, entities) => (entities()[key] ?? []).some((h) => h.text.toLowerCase() === atom.value),
      };
    }
    case 'lang':
      return exactAtom(sql`${sql.ref('t.lang')} = ${atom.value}`, (row) => row.lang === atom.value);
    case 'filter':
      return filterAtom(atom.value);
    case 'min':
      return exactAtom(
        sql`${sql.ref(`t.${atom.field}`)} >= ${atom.value}`,
        (row) => num(row[atom.field]) >= atom.value,
      );
    case 'since':
      return exactAtom(
        sql`${sql.ref('t.created_at')} >= ${atom.value}`,
        (row) => num(row.created_at) >= atom.value,
      );
    case 'until':
      return exactAtom(
        sql`${sql.ref('t.created_at')} < ${atom.value}`,
        (row) => num(row.created_at) < atom.value,
      );
    case 'url':
      return {
        sql: like(sql`lower(${sql.ref('t.entities')})`, atom.value),
        approximate: true,
        test: (_row, entities) =>
          (entities().urls ?? []).some((u) => `${u.url} ${u.expandedUrl}`.toLowerCase().includes(atom.value)),
      };
    case 'conversation':
      return exactAtom(
        sql`${sql.ref('t.conversation_id')} = ${atom.value}`,
        (row) => row.conversation_id === atom.value,
      );
  }
}

function filterAtom(filter: SearchFilter): CompiledAtom {
  const media = (row: SearchRow) => parseJson<StoredMedia>(row.media) ?? [];
  const mediaSql = (type: string) => like(sql`coalesce(${sql.ref('t.media')}, '')`, `"type":"${type}"`);
  switch (filter) {
    case 'media':
      return exactAtom(sql`${sql.ref('t.media')} is not null`, (row) => row.media !== null);
    case 'images':
      return exactAtom(mediaSql('photo'), (row) => media(row).some((m) => m.type === 'photo'));
    case 'videos':
      return exactAtom(sql<SqlBool>`(${mediaSql('video')} or ${mediaSql('animated_gif')})`, (row) =>
        media(row).some((m) => m.type === 'video' || m.type === 'animated_gif'),
      );
    case 'gifs':
      return exactAtom(mediaSql('animated_gif'), (row) => media(row).some((m) => m.type === 'animated_gif'));
    case 'links':
      return exactAtom(
        like(sql.ref('t.entities'), '"urls":'),
        (_row, entities) => (entities().urls?.length ?? 0) > 0,
      );
    case 'hashtags':
      return exactAtom(
        like(sql.ref('t.entities'), '"hashtags":'),
        (_row, e) => (e().hashtags?.length ?? 0) > 0,
      );
    case 'mentions':
      return exactAtom(
        like(sql.ref('t.entities'), '"mentions":'),
        (_row, e) => (e().mentions?.length ?? 0) > 0,
      );
    case 'replies':
      return exactAtom(sql`${sql.ref('t.kind')} = 'reply'`, (row) => row.kind === 'reply');
    case 'quotes':
      return exactAtom(
        sql`${sql.ref('t.quoted_tweet_id')} is not null`,
        (row) => row.quoted_tweet_id !== null,
      );
    case 'retweets':
      return exactAtom(sql`${sql.ref('t.kind')} = 'retweet'`, (row) => row.kind === 'retweet');
    case 'polls':
      return exactAtom(sql`${sql.ref('t.poll')} is not null`, (row) => row.poll !== null);
    case 'verified':
      return exactAtom(sql`${sql.ref('a.verified')} = 1`, (row) => num(row.author_verified) === 1);
    default:
      return exactAtom(TRUE, () => true);
  }
}

function exactAtom(condition: RawBuilder<unknown>, test: CompiledAtom['test']): CompiledAtom {
  return { sql: condition as RawBuilder<SqlBool>, approximate: false, test };
}

/** `expr LIKE '%needle%'`, with the needle's wildcards escaped. */
export function like(expr: RawBuilder<unknown>, needle: string): RawBuilder<SqlBool> {
  const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`${expr} like ${pattern} escape '\\'`;
}

// Words match whole: "cat" finds "cat," and "#cat" but not "category". Scripts written without spaces
// (Japanese, Chinese) match anywhere.
function wordPattern(value: string): RegExp {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u.test(value))
    return new RegExp(escaped, 'u');
  return new RegExp(`(?:^|[^\\p{L}\\p{N}_])${escaped}(?:$|[^\\p{L}\\p{N}_])`, 'u');
}
