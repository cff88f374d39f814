import type { EventType } from '@xsvc/sdk/contract';
import { sql } from 'kysely';
import type { Clock } from '../../../core/clock.js';
import { num } from '../../../core/db/database.js';
import type { NewEvent } from '../../../core/events/store.js';
import type { Tweet, UserProfile } from '../../../core/platform/platform.js';
import { tweetEventTypes } from '../classify.js';
import { bumpShard, parseEventTypes } from '../monitor-rows.js';
import { diffProfile, type ProfileSnapshot, parseSnapshot } from '../profile-diff.js';
import type { MonitorRow } from '../repository.js';
import { idBefore, idEarlier, isAfter, maxId, minId } from '../watermark.js';
import { commitChecks } from './commit.js';
import { type EventSource, profileEvents, tweetEvents } from './event-builders.js';
import { type CheckDeps, ShardChecks } from './shard-checks.js';

/** The stamp of an account that no longer exists (absent from the platform's stamps). */
const GONE = '';

/** Why the engine paused a monitor whose account disappeared (suspended or deleted). */
export const PAUSED_USER_GONE = 'x_user_not_found';

/** An active account monitor as the engine holds it between checks. */
interface Watched {
  id: string;
  rev: number;
  accountId: string;
  xUserId: string;
  username: string;
  eventTypes: ReadonlySet<EventType>;
  baseline: string;
  baselineAt: number;
  /** Every tweet of the account at or below this id has been handled (late commits aside). */
  cursor: string;
  snapshot: ProfileSnapshot;
  stamp: string;
  joined: boolean;
  shard: number;
}

/** What one check of the account monitors did, and where its time went (ms, by the injected clock). */
export interface AccountCheckReport {
  monitors: number;
  tweetsRead: number;
  events: number;
  paused: number;
  timings: { sync: number; profiles: number; tweets: number; store: number };
}

/** What a check found, written in one transaction. */
interface Findings {
  events: NewEvent[];
  /** New snapshots by monitor id (with the `rev` they were read at), and whether the monitor pauses. */
  updates: Map<string, { rev: number; snapshot: ProfileSnapshot; stamp: string; pause: boolean }>;
  /** `monitor:tweet` keys handled, remembered once the transaction commits. */
  keys: string[];
  paused: Set<string>;
}

/**
 * The account monitors' check: every active monitor of the held shards, each second, with two batched
 * platform reads for all of them (profile change stamps, then new tweets of every watched account since
 * the oldest watermark). Profile changes are diffed against the stored snapshot; new tweets above a
 * monitor's baseline are classified; events of the monitor's types are stored once, with the new snapshots,
 * in one transaction.
 */
export class AccountChecks extends ShardChecks {
  private readonly watched = new Map<string, Watched>();
  /** The version of each held shard when its monitors were last read. */
  private readonly versions = new Map<number, number>();
  private byAuthor = new Map<string, Watched[]>();
  /** The watched accounts (the keys of `byAuthor`), one array kept until they change: the platform reads
   * derive what they need from it once. */
  private authors: readonly string[] = [];
  /** The lowest cursor of the watched monitors, when known (forgotten when a monitor is loaded or dropped). */
  private oldest: string | undefined;
  /** Monitors loaded but not yet marked joined (checked for the first time). */
  private fresh: Watched[] = [];
  /** The held shards the watched monitors were last filtered by. */
  private heldKey = '';
  /** The platform's digest of the watched accounts' stamps at the last check (reset when they change). */
  private digest: string | undefined;

  constructor(
    deps: CheckDeps,
    private readonly clock: Clock,
  ) {
    super(deps);
  }

  /**
   * Checks every active account monitor of the held shards once; without `profiles` (the platform's budget
   * has no room for them this time), only their new posts.
   */
  async run(now: number, profiles = true): Promise<AccountCheckReport> {
    const clock = this.clock;
    let mark = clock.now();
    const lap = () => {
      const t = clock.now();
      const ms = t - mark;
      mark = t;
      return ms;
    };
    this.recent.prune(now);
    await this.sync();
    const timings = { sync: lap(), profiles: 0, tweets: 0, store: 0 };
    const report: AccountCheckReport = {
      monitors: this.watched.size,
      tweetsRead: 0,
      events: 0,
      paused: 0,
      timings,
    };
    if (this.watched.size === 0) return report;
    const found: Findings = { events: [], updates: new Map(), keys: [], paused: new Set() };
    if (profiles) await this.checkProfiles(now, found);
    timings.profiles = lap();
    report.tweetsRead = await this.checkTweets(now, found);
    timings.tweets = lap();
    try {
      report.events = await this.store(found, now);
    } catch (err) {
      // What is held in memory got ahead of the database: forget it, the next check reloads every shard.
      this.watched.clear();
      this.versions.clear();
      this.index();
      throw err;
    }
    for (const key of found.keys) this.recent.add(key, now);
    for (const id of found.paused) this.watched.delete(id);
    report.paused = found.paused.size;
    if (found.paused.size) this.index();
    await this.markJoined();
    const oldest = this.oldestCursor();
    if (oldest !== undefined) await this.leases.saveCursor(oldest);
    timings.store = lap();
    return report;
  }

  /** Writes the events and the new snapshots (pausing monitors whose account is gone) in one transaction. */
  private async store(found: Findings, now: number): Promise<number> {
    if (found.events.length === 0 && found.updates.size === 0) return 0; // nothing to write
    return commitChecks(this.db, this.ids, found.events, now, async (trx) => {
      for (const [id, u] of found.updates) {
        await trx
          .updateTable('monitors')
          .set({
            profile_snapshot: JSON.stringify(u.snapshot),
            profile_stamp: u.stamp,
            username: u.snapshot.username,
            ...(u.pause && {
              is_active: 0,
              paused_reason: PAUSED_USER_GONE,
              paused_at: now,
              rev: sql`rev + 1`,
            }),
          })
          .where('id', '=', id)
          .where('rev', '=', u.rev)
          .execute();
        const shard = this.watched.get(id)?.shard;
        if (u.pause && shard !== undefined) await bumpShard(trx, shard);
      }
    });
  }

  /**
   * Brings the held monitors in line with the table: new, changed (`rev`), paused or deleted ones. Only the
   * shards whose version moved since the last check (or that are newly held) are read again.
   */
  private async sync(): Promise<void> {
    const held = new Set(this.leases.shards);
    let changed = false;
    const heldKey = this.leases.shards.join(',');
    if (heldKey !== this.heldKey) {
      // Shards given up: their monitors go (a pass over every monitor, only when the held set changed).
      for (const [id, w] of this.watched) {
        if (!held.has(w.shard)) {
          this.watched.delete(id);
          changed = true;
        }
      }
      for (const shard of this.versions.keys()) if (!held.has(shard)) this.versions.delete(shard);
      this.heldKey = heldKey;
    }
    const versions = held.size
      ? await this.db
          .selectFrom('monitor_shards')
          .select(['shard', 'version', 'tweet_cursor'])
          .where('shard', 'in', [...held])
          .execute()
      : [];
    const moved = versions.filter((v) => this.versions.get(num(v.shard)) !== num(v.version));
    if (moved.length === 0) {
      if (changed) this.index();
      return;
    }
    const cursors = new Map(moved.map((v) => [num(v.shard), v.tweet_cursor]));
    // Shards newly held: none of their monitors is here, so every active one is read, one query a shard
    // (not one for all: the rows of 64 shards at once would swell the heap of a large instance).
    for (const v of moved) {
      const shard = num(v.shard);
      if (this.versions.has(shard)) continue;
      const rows = await this.db
        .selectFrom('monitors')
        .selectAll()
        .where('is_active', '=', 1)
        .where('shard', '=', shard)
        .execute();
      for (const row of rows) this.load(row, v.tweet_cursor);
      changed = true;
    }
    // Shards whose version moved: only the monitors added, changed (`rev`) or gone are read again.
    const shards = moved.filter((v) => this.versions.has(num(v.shard))).map((v) => num(v.shard));
    if (shards.length > 0) changed = (await this.reload(shards, cursors)) || changed;
    for (const v of moved) this.versions.set(num(v.shard), num(v.version));
    if (changed) this.index();
  }

  /** Reads again the monitors of `shards` that were added, changed or removed; true when any was. */
  private async reload(shards: number[], cursors: Map<number, string | null>): Promise<boolean> {
    let changed = false;
    const revs = await this.db
      .selectFrom('monitors')
      .select(['id', 'rev', 'shard'])
      .where('is_active', '=', 1)
      .where('shard', 'in', shards)
      .execute();
    const live = new Set(revs.map((r) => r.id));
    const stale = revs.filter((r) => this.watched.get(r.id)?.rev !== num(r.rev)).map((r) => r.id);
    const movedShards = new Set(shards);
    for (const [id, w] of this.watched) {
      if (movedShards.has(w.shard) && !live.has(id)) {
        this.watched.delete(id);
        changed = true;
      }
    }
    for (let i = 0; i < stale.length; i += 500) {
      const rows = await this.db
        .selectFrom('monitors')
        .selectAll()
        .where('id', 'in', stale.slice(i, i + 500))
        .where('is_active', '=', 1)
        .execute();
      for (const row of rows) this.load(row, cursors.get(num(row.shard)) ?? null);
      changed = true;
    }
    return changed;
  }

  private load(row: MonitorRow, shardCursor: string | null): void {
    const held = this.watched.get(row.id);
    const baselineAt = num(row.baseline_at);
    const sameBaseline = held && held.baseline === row.baseline_tweet_id && held.baselineAt === baselineAt;
    // A monitor new to this engine starts at its baseline (never before its creation time, less the
    // look-back); one an earlier holder of the shard had joined starts where that holder got to.
    let cursor = maxId(row.baseline_tweet_id, idBefore(baselineAt - this.timing.lookbackMs));
    if (num(row.joined) === 1 && shardCursor) cursor = maxId(cursor, shardCursor);
    const w: Watched = {
      id: row.id,
      rev: num(row.rev),
      accountId: row.account_id,
      xUserId: row.x_user_id,
      username: row.username,
      eventTypes: new Set(parseEventTypes(row.event_types)),
      baseline: row.baseline_tweet_id,
      baselineAt,
      cursor: sameBaseline ? held.cursor : cursor,
      snapshot: sameBaseline ? held.snapshot : parseSnapshot(row.profile_snapshot),
      stamp: sameBaseline ? held.stamp : row.profile_stamp,
      joined: num(row.joined) === 1,
      shard: num(row.shard),
    };
    this.watched.set(row.id, w);
    if (!w.joined) this.fresh.push(w);
    this.oldest = undefined;
  }

  private index(): void {
    const byAuthor = new Map<string, Watched[]>();
    for (const w of this.watched.values()) {
      const list = byAuthor.get(w.xUserId);
      if (list) list.push(w);
      else byAuthor.set(w.xUserId, [w]);
    }
    this.byAuthor = byAuthor;
    this.authors = [...byAuthor.keys()];
    this.oldest = undefined;
    this.digest = undefined;
  }

  /** The lowest cursor of the watched monitors (undefined: none). */
  private oldestCursor(): string | undefined {
    if (this.oldest === undefined) {
      for (const w of this.watched.values())
        this.oldest = this.oldest === undefined ? w.cursor : minId(this.oldest, w.cursor);
    }
    return this.oldest;
  }

  private source(w: Watched): Extract<EventSource, { kind: 'account' }> {
    return { kind: 'account', monitorId: w.id, accountId: w.accountId, username: w.username };
  }

  /**
   * Profile changes: the stamps of every watched account (a conditional read: nothing comes back when none
   * changed), then the full profiles of those whose stamp moved.
   */
  private async checkProfiles(now: number, found: Findings): Promise<void> {
    const read = await this.platform.profileStamps(this.authors, this.digest);
    this.digest = read.digest;
    const stamps = read.stamps;
    if (!stamps) return; // nothing changed since the last check
    const moved = [...this.byAuthor].filter(([userId, list]) =>
      list.some((w) => w.stamp !== (stamps.get(userId) ?? GONE)),
    );
    if (moved.length === 0) return;
    const present = moved.map(([userId]) => userId).filter((id) => stamps.has(id));
    const profiles = new Map<string, UserProfile>(
      (present.length ? await this.platform.getUsers(present) : []).map((p) => [p.id, p]),
    );
    for (const [userId, list] of moved) {
      const stamp = stamps.get(userId) ?? GONE;
      const profile = profiles.get(userId);
      if (stamp !== GONE && !profile) continue; // changed between the two reads: the next check sees it
      for (const w of list) {
        if (w.stamp === stamp) continue;
        const { changes, snapshot } = diffProfile(w.snapshot, profile);
        const wanted = changes.filter((c) => w.eventTypes.has(c.type));
        const change = { previous: w.stamp, current: stamp };
        found.events.push(...profileEvents(this.source(w), userId, wanted, profile, change, this.ids, now));
        const gone = snapshot.unavailable !== false;
        found.updates.set(w.id, { rev: w.rev, snapshot, stamp, pause: gone });
        if (gone) found.paused.add(w.id);
        w.snapshot = snapshot;
        w.stamp = stamp;
        w.username = snapshot.username;
      }
    }
  }

  /**
   * New tweets: one stream over every watched account from the oldest watermark (less the look-back),
   * paged. Returns how many tweets were read.
   */
  private async checkTweets(now: number, found: Findings): Promise<number> {
    const authors = this.authors;
    const oldest = this.oldestCursor();
    if (oldest === undefined || authors.length === 0) return 0;
    let since = idEarlier(oldest, this.timing.lookbackMs);
    let read = 0;
    let complete = false;
    for (let page = 0; page < this.timing.maxPages; page++) {
      const res = await this.platform.tweetsByAuthorsSince(authors, since, this.timing.pageSize);
      read += res.items.length;
      for (const tweet of res.items) this.handleTweet(tweet, now, found);
      if (!res.nextSinceId) {
        complete = true;
        break;
      }
      since = res.nextSinceId;
    }
    // A complete read saw everything posted before `now`; a cut one everything up to where it stopped.
    const reached = complete ? idBefore(now) : since;
    // Every cursor rises to `reached`; the lowest one is found on the way.
    let lowest: string | undefined;
    for (const w of this.watched.values()) {
      w.cursor = maxId(w.cursor, reached);
      lowest = lowest === undefined ? w.cursor : minId(lowest, w.cursor);
    }
    this.oldest = lowest;
    return read;
  }

  private handleTweet(tweet: Tweet, now: number, found: Findings): void {
    const authorId = tweet.author?.id;
    const list = authorId ? this.byAuthor.get(authorId) : undefined;
    if (!list) return;
    let types: ReturnType<typeof tweetEventTypes> | undefined;
    for (const w of list) {
      if (found.paused.has(w.id) || !isAfter(tweet.id, w.baseline)) continue;
      const key = `${w.id}:${tweet.id}`;
      if (this.recent.has(key)) continue;
      found.keys.push(key);
      types ??= tweetEventTypes(tweet);
      const wanted = types.filter((t) => w.eventTypes.has(t));
      if (wanted.length === 0) continue;
      const author = tweet.author ?? { id: w.xUserId, username: w.username, name: w.snapshot.name };
      found.events.push(...tweetEvents(this.source(w), tweet, author, wanted, this.ids, now));
    }
  }

  /** Records that the monitors checked for the first time are covered by the shard cursor from now on. */
  private async markJoined(): Promise<void> {
    if (this.fresh.length === 0) return;
    // Only those still watched as loaded (a reload or a pause replaced or dropped the others).
    const fresh = this.fresh.filter((w) => !w.joined && this.watched.get(w.id) === w);
    this.fresh = [];
    const byRev = new Map<number, string[]>();
    for (const w of fresh) {
      const ids = byRev.get(w.rev);
      if (ids) ids.push(w.id);
      else byRev.set(w.rev, [w.id]);
    }
    for (const [rev, ids] of byRev) {
      for (let i = 0; i < ids.length; i += 500) {
        await this.db
          .updateTable('monitors')
          .set({ joined: 1 })
          .where('id', 'in', ids.slice(i, i + 500))
          .where('rev', '=', rev)
          .where('joined', '=', 0)
          .execute();
      }
    }
    for (const w of fresh) w.joined = true;
  }
}
