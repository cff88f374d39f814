import type { TweetEventType } from '@xsvc/sdk/contract';
import { num } from '../../../core/db/database.js';
import type { NewEvent } from '../../../core/events/store.js';
import { PlatformUnavailableError, type Tweet } from '../../../core/platform/platform.js';
import { compareIds, snowflakeTime } from '../../../platform/simulated/ids.js';
import { tweetEventTypes } from '../classify.js';
import type { KeywordMonitorRow } from '../keyword-repository.js';
import { parseEventTypes } from '../monitor-rows.js';
import { idBefore, idEarlier, isAfter, maxId, minId } from '../watermark.js';
import { commitChecks } from './commit.js';
import { tweetEvents } from './event-builders.js';
import { type CheckDeps, ShardChecks } from './shard-checks.js';

/** Whether `err` is the platform's rate limit (a spent window: X's 429). */
export function isRateLimited(err: unknown): boolean {
  return err instanceof PlatformUnavailableError && err.code === 'x_api_rate_limited';
}

/** Tweets per search page of a keyword check. */
const SEARCH_PAGE = 100;

/** An active keyword monitor as the engine holds it between checks. */
interface Query {
  id: string;
  rev: number;
  accountId: string;
  query: string;
  eventTypes: ReadonlySet<TweetEventType>;
  baseline: string;
  baselineAt: number;
  /** How far its search was handled (late commits aside); saved when it moves. */
  cursor: string;
  saved: string;
}

/** What one check of the keyword monitors did. */
export interface KeywordCheckReport {
  monitors: number;
  tweetsRead: number;
  events: number;
}

/**
 * The keyword monitors' check: each active keyword monitor of the held shards runs its search (newest
 * first, from its watermark less the look-back) every second; new matches above its baseline are classified
 * and stored as tweet events of its types; monitors with the same query share its search. Keyword monitors
 * are few next to account monitors, so each keeps its own cursor in its row.
 */
export class KeywordChecks extends ShardChecks {
  private readonly held = new Map<string, Query>();

  constructor(
    deps: CheckDeps,
    private readonly log: (err: unknown, message: string) => void,
  ) {
    super(deps);
  }

  /** Checks every active keyword monitor of the held shards once. */
  async run(now: number): Promise<KeywordCheckReport> {
    this.recent.prune(now);
    await this.sync();
    const report: KeywordCheckReport = { monitors: this.held.size, tweetsRead: 0, events: 0 };
    if (this.held.size === 0) return report;
    const events: NewEvent[] = [];
    const keys: string[] = [];
    // Monitors with the same query (of different accounts) share one search: X's matching cannot be
    // reproduced here, so different queries are never merged into one request and split again.
    const byQuery = new Map<string, Query[]>();
    for (const q of this.held.values()) {
      const list = byQuery.get(q.query);
      if (list) list.push(q);
      else byQuery.set(q.query, [q]);
    }
    for (const group of byQuery.values()) {
      let found: { tweets: Tweet[]; complete: boolean };
      try {
        found = await this.search(group, now);
      } catch (err) {
        // One query the platform refuses (or a platform hiccup) must not stop the other monitors' checks;
        // a spent rate-limit window does: the other queries' searches would get the same 429.
        this.log(err, `keyword monitor ${group.map((q) => q.id).join(', ')}: search failed`);
        if (isRateLimited(err)) break;
        continue;
      }
      const { tweets, complete } = found;
      report.tweetsRead += tweets.length;
      // Oldest first, so event ids follow the order the tweets were posted in.
      tweets.sort((a, b) => compareIds(a.id, b.id));
      for (const q of group) {
        const since = idEarlier(q.cursor, this.timing.lookbackMs);
        for (const tweet of tweets)
          if (isAfter(tweet.id, since)) this.handleTweet(q, tweet, now, events, keys);
        if (complete) q.cursor = maxId(q.cursor, idBefore(now));
      }
    }
    const moved = [...this.held.values()].filter((q) => q.cursor !== q.saved);
    if (events.length === 0 && moved.length === 0) {
      // Nothing to write (what was read matched no type of its monitor).
      for (const key of keys) this.recent.add(key, now);
      return report;
    }
    report.events = await commitChecks(this.db, this.ids, events, now, async (trx) => {
      for (const q of moved) {
        await trx
          .updateTable('keyword_monitors')
          .set({ cursor_tweet_id: q.cursor })
          .where('id', '=', q.id)
          .where('rev', '=', q.rev)
          .execute();
      }
    });
    for (const q of moved) q.saved = q.cursor;
    for (const key of keys) this.recent.add(key, now);
    return report;
  }

  private async sync(): Promise<void> {
    const shards = this.leases.shards;
    const rows = shards.length
      ? await this.db
          .selectFrom('keyword_monitors')
          .selectAll()
          .where('is_active', '=', 1)
          .where('shard', 'in', [...shards])
          .execute()
      : [];
    const live = new Set(rows.map((r) => r.id));
    for (const id of this.held.keys()) if (!live.has(id)) this.held.delete(id);
    for (const row of rows) if (this.held.get(row.id)?.rev !== num(row.rev)) this.load(row);
  }

  private load(row: KeywordMonitorRow): void {
    const held = this.held.get(row.id);
    const baselineAt = num(row.baseline_at);
    const sameBaseline = held && held.baseline === row.baseline_tweet_id && held.baselineAt === baselineAt;
    const start = maxId(row.baseline_tweet_id, idBefore(baselineAt - this.timing.lookbackMs));
    const cursor = sameBaseline ? held.cursor : maxId(start, row.cursor_tweet_id);
    this.held.set(row.id, {
      id: row.id,
      rev: num(row.rev),
      accountId: row.account_id,
      query: row.query,
      eventTypes: new Set(parseEventTypes(row.event_types) as TweetEventType[]),
      baseline: row.baseline_tweet_id,
      baselineAt,
      cursor,
      saved: row.cursor_tweet_id,
    });
  }

  /**
   * The matches of a query shared by `group` above the lowest of their cursors less the look-back, newest
   * first, a few pages at most; from no earlier than the platform's search reaches back (`searchReachMs`:
   * a monitor whose cursor is older, a resumed one, starts at that edge instead of being refused).
   */
  private async search(
    group: readonly Query[],
    now: number,
  ): Promise<{ tweets: Tweet[]; complete: boolean }> {
    const first = group[0] as Query;
    let since = idEarlier(first.cursor, this.timing.lookbackMs);
    let baseline = first.baseline;
    for (const q of group) {
      since = minId(since, idEarlier(q.cursor, this.timing.lookbackMs));
      baseline = minId(baseline, q.baseline);
    }
    if (this.platform.keywordTweetsSince) return this.delivered(first, since);
    const reach = this.platform.searchReachMs;
    const from = snowflakeTime(since === '0' ? baseline : since);
    const sinceTime = Math.floor((reach === undefined ? from : Math.max(from, now - reach)) / 1000);
    const tweets: Tweet[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < this.timing.maxPages; page++) {
      const res = await this.platform.searchTweets(
        { q: first.query, queryType: 'Latest', sinceTime },
        { pageSize: SEARCH_PAGE, ...(cursor && { cursor }) },
      );
      const fresh = res.items.filter((t) => isAfter(t.id, since));
      tweets.push(...fresh);
      if (fresh.length < res.items.length || !res.nextCursor) return { tweets, complete: true };
      cursor = res.nextCursor;
    }
    return { tweets, complete: false };
  }

  /** The query's matches above `since` where the platform delivers them itself, oldest first, paged. */
  private async delivered(q: Query, since: string): Promise<{ tweets: Tweet[]; complete: boolean }> {
    const tweets: Tweet[] = [];
    let from = since;
    for (let page = 0; page < this.timing.maxPages; page++) {
      const res = await this.platform.keywordTweetsSince?.(q.query, from, SEARCH_PAGE);
      tweets.push(...(res?.items ?? []));
      if (!res?.nextSinceId) return { tweets, complete: true };
      from = res.nextSinceId;
    }
    return { tweets, complete: false };
  }

  private handleTweet(q: Query, tweet: Tweet, now: number, events: NewEvent[], keys: string[]): void {
    if (!isAfter(tweet.id, q.baseline) || !tweet.author) return;
    const key = `${q.id}:${tweet.id}`;
    if (this.recent.has(key)) return;
    keys.push(key);
    const wanted = tweetEventTypes(tweet).filter((t) => q.eventTypes.has(t));
    if (wanted.length === 0) return;
    const source = {
      kind: 'keyword',
      keywordMonitorId: q.id,
      accountId: q.accountId,
      query: q.query,
    } as const;
    events.push(...tweetEvents(source, tweet, tweet.author, wanted, this.ids, now));
  }
}
