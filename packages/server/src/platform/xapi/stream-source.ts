import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { type AuthorTweets, PlatformUnavailableError, type Tweet } from '../../core/platform/platform.js';
import { XApiRequestError } from './client.js';
import { expand, mapTweet } from './mappers.js';
import type { XRateBudget } from './rate-budget.js';
import {
  type StreamBackoff,
  StreamConnection,
  type StreamMessage,
  type StreamNotice,
} from './stream-connection.js';
import { streamParams } from './stream-fields.js';
import {
  parseTag,
  planRules,
  type RuleLimits,
  type RulePlan,
  ruleKey,
  StreamRulesClient,
  type WantedRules,
} from './stream-rules.js';
import type { XIncludes, XTweet } from './types.js';
import { type SendFetch, userClient } from './user-client.js';
import { isXId } from './user-ref.js';

/** X's filtered stream. */
const STREAM_PATH = '/2/tweets/search/stream';
/** The one row of `x_stream_state`. */
const STATE_ID = 'stream';

/** Account ids per buffer query (the `in (…)` list). */
const AUTHORS_PER_QUERY = 500;

/** What {@link XStreamSource} needs. */
export interface XStreamSourceOptions {
  db: Kysely<Database>;
  bearerToken: string;
  /** `https://api.x.com` unless a proxy or a test server stands in. */
  baseUrl: string;
  fetch?: SendFetch | undefined;
  /**
   * The app's request budget: hears the `x-rate-limit-*` headers of the rules requests (shared with the
   * other instances as every app request's are), and holds a rule edit while X said its window is spent.
   */
  budget?: Pick<XRateBudget, 'observe' | 'spentUntil'> | undefined;
  limits: RuleLimits;
  /** Milliseconds since the epoch (the server's clock): lease times, receipt times. */
  now: () => number;
  /** This instance's name in the lease (config `XSVC_INSTANCE_ID`); a random one by default. */
  owner?: string | undefined;
  /** How often the lease is renewed and the rules compared with the monitors (5 s by default). */
  tickMs?: number | undefined;
  /** How long a lease holds without renewal (30 s by default). */
  leaseMs?: number | undefined;
  /** Rules are listed from X and reconciled at least this often, and whenever the monitors change (60 s). */
  reconcileMs?: number | undefined;
  /** How long a rule just added is kept though no monitor needs it (`RULE_GRACE_MS` by default). */
  graceMs?: number | undefined;
  /** How long delivered posts are kept for the checks (24 h by default). */
  retentionMs?: number | undefined;
  /** Per rules request; 10 s by default. */
  timeoutMs?: number | undefined;
  stallMs?: number | undefined;
  backoff?: Partial<StreamBackoff> | undefined;
  /** Where failures of the background work go (the server's log). */
  log?: ((err: unknown, message: string) => void) | undefined;
  /** Hears the connection's notices (tests, status). */
  onNotice?: ((notice: StreamNotice) => void) | undefined;
}

/** The id as a sort key: left-padded to 20 digits, so text order is id order. */
export function sortKey(id: string): string {
  return (isXId(id) ? id : '0').padStart(20, '0');
}

/** Whether the stream is serving, as the shared state row says. */
export interface StreamHealth {
  /** The instance holding the connection, if any. */
  owner: string | null;
  /** When the holder last heard from X (ms), or null. */
  aliveAt: number | null;
  lastError: string | null;
}

/**
 * The monitors' source of new posts on X's filtered stream (`X_API_MONITOR_SOURCE=stream`):
 * - one instance on a database holds the one connection X allows (a lease row, `x_stream_state`, renewed
 *   every tick; another takes over when it lapses), keeps the rules in step with the active monitors
 *   (`stream-rules.ts`) and writes every delivered post to `x_stream_posts` (keyword matches to
 *   `x_stream_matches`);
 * - every instance's checks read the buffer: account monitors by author above their watermark, keyword
 *   monitors by rule, oldest first; while no instance has heard from X for a while they read nothing and
 *   keep their watermark (logged), so nothing buffered is skipped;
 * - creating or resuming a monitor adds its rule first ({@link admitAuthor}, {@link admitQuery}), so nothing
 *   posted after its watermark is missed, and refuses it clearly when the tier's rule limits leave no room.
 */
export class XStreamSource {
  readonly owner: string;
  readonly #o: XStreamSourceOptions;
  readonly #rules: StreamRulesClient;
  readonly #conn: StreamConnection;
  #timer: NodeJS.Timeout | undefined;
  #ticking: Promise<void> | undefined;
  #stopped = true;
  #holder = false;
  #serial: Promise<unknown> = Promise.resolve();
  #reconciledAt = Number.NEGATIVE_INFINITY;
  #wantedSignature = '';
  #settleAt: number | undefined;
  #aliveWrittenAt = Number.NEGATIVE_INFINITY;
  #health: { at: number; value: StreamHealth } | undefined;
  #warnedAt = Number.NEGATIVE_INFINITY;
  #leaseUntil = 0;
  #cap: number | undefined;
  #capReadAt = Number.NEGATIVE_INFINITY;

  constructor(opts: XStreamSourceOptions) {
    this.#o = opts;
    this.owner = opts.owner ?? `xsvc-${randomUUID()}`;
    const baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.#rules = new StreamRulesClient(
      userClient({
        accessToken: opts.bearerToken,
        asApp: true,
        baseUrl,
        timeoutMs: opts.timeoutMs ?? 10_000,
        fetch: opts.fetch,
        onAnswer:
          opts.budget &&
          ((path, status, headers, method) => opts.budget?.observe(path, status, headers, method)),
      }),
      opts.now,
      opts.budget,
    );
    const qs = new URLSearchParams(streamParams as Record<string, string>).toString();
    this.#conn = new StreamConnection({
      url: `${baseUrl}${STREAM_PATH}?${qs}`,
      bearerToken: opts.bearerToken,
      fetch: opts.fetch,
      stallMs: opts.stallMs,
      backoff: opts.backoff,
      now: opts.now,
      onMessage: (m) => this.#onMessage(m),
      onNotice: (n) => this.#onNotice(n),
    });
  }

  /** Whether this instance holds the stream's connection. */
  get holder(): boolean {
    return this.#holder;
  }

  /** Starts the background work: the lease, the connection while held, the rules' reconciliation. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    const loop = async () => {
      this.#ticking = this.tick().catch((err) => this.#o.log?.(err, 'x stream: tick failed'));
      await this.#ticking;
      if (!this.#stopped) this.#timer = setTimeout(loop, this.#o.tickMs ?? 5_000);
    };
    void loop();
  }

  /** Stops the background work, closes the connection and frees the lease for another instance. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#ticking;
    await this.#conn.stop();
    if (this.#holder) {
      this.#holder = false;
      await this.#o.db
        .updateTable('x_stream_state')
        .set({ owner: null, lease_until: 0 })
        .where('id', '=', STATE_ID)
        .where('owner', '=', this.owner)
        .execute()
        .catch((err) => this.#o.log?.(err, 'x stream: lease not released'));
    }
  }

  /**
   * One round of the background work: takes or renews the lease; the holder reconciles the rules (when the
   * monitors changed, or every `reconcileMs`), keeps the connection open and drops posts past retention.
   */
  async tick(): Promise<void> {
    const now = this.#o.now();
    let held: boolean;
    try {
      held = await this.#lease(now);
    } catch (err) {
      // The database cannot be reached: past the lease another instance may take over, so let go first.
      if (this.#holder && now >= this.#leaseUntil - (this.#o.tickMs ?? 5_000)) held = false;
      else throw err;
    }
    if (!held) {
      if (this.#holder) this.#o.log?.(undefined, 'x stream: lease lost, closing the connection');
      this.#holder = false;
      if (this.#conn.running) await this.#conn.stop();
      return;
    }
    this.#holder = true;
    this.#leaseUntil = now + (this.#o.leaseMs ?? 30_000);
    const wanted = await this.#wanted();
    const signature = JSON.stringify([[...wanted.authors].sort(), [...wanted.queries].sort()]);
    const due =
      signature !== this.#wantedSignature ||
      now - this.#reconciledAt >= (this.#o.reconcileMs ?? 60_000) ||
      (this.#settleAt !== undefined && now >= this.#settleAt);
    if (due) {
      try {
        const plan = await this.reconcile(wanted);
        this.#wantedSignature = signature;
        this.#reconciledAt = now;
        this.#settleAt = plan.settleAt;
      } catch (err) {
        this.#o.log?.(err, 'x stream: rules not reconciled');
      }
    }
    if (!this.#stopped && !this.#conn.running) this.#conn.start();
    await this.#prune(now);
  }

  /**
   * Brings X's rule set to what the active monitors need: deletes the rules of ours no monitor needs, adds
   * the missing ones, leaves every rule without our tag prefix alone. Answers the plan it applied; what did
   * not fit the limits is logged (those monitors were accepted under other limits).
   */
  reconcile(wanted?: WantedRules): Promise<RulePlan> {
    return this.#exclusive(async () => {
      const need = wanted ?? (await this.#wanted());
      const plan = await this.#plan(need);
      const refused = plan.refused.authors.length + plan.refused.queries.length;
      if (refused > 0) {
        this.#o.log?.(
          undefined,
          `x stream: ${refused} watched accounts or queries do not fit the rule limits (${this.#limitsText()})`,
        );
      }
      return plan;
    });
  }

  /**
   * Makes sure a rule covers `authorId` before an account monitor of it is created or resumed. Throws
   * `x_api_unavailable` when the tier's rule limits leave no room for it.
   */
  admitAuthor(authorId: string): Promise<void> {
    return this.#exclusive(async () => {
      const wanted = await this.#wanted();
      const authors = new Set(wanted.authors).add(authorId);
      await this.#plan({ authors, queries: wanted.queries }, (p) => {
        if (p.refused.authors.includes(authorId)) {
          throw this.#full(`account ${authorId}`);
        }
      });
    });
  }

  /**
   * Makes sure a rule matches `query` before a keyword monitor of it is created or resumed: X checks it first
   * (`dry_run`; an invalid one is 400 `invalid_input` in X's words). Throws when it is longer than a rule may
   * be (400) or when the rule count is reached (`x_api_unavailable`).
   */
  admitQuery(query: string): Promise<void> {
    return this.#exclusive(async () => {
      const max = this.#o.limits.maxRuleLength;
      if (query.length > max) {
        throw new XApiRequestError(
          `query: ${query.length} characters, longer than a filtered stream rule may be (${max}, X_API_STREAM_MAX_RULE_LENGTH)`,
          400,
          undefined,
        );
      }
      const wanted = await this.#wanted();
      const existing = await this.#rules.list();
      const key = ruleKey(query);
      const have = existing.some(
        (r) => r.value === query && parseTag(r.tag)?.kind === 'q' && r.tag?.includes(key),
      );
      if (!have) await this.#rules.validate(query);
      const queries = new Set(wanted.queries).add(query);
      await this.#plan(
        { authors: wanted.authors, queries },
        (p) => {
          if (p.refused.queries.includes(query)) {
            throw this.#full(`"${query}"`);
          }
        },
        existing,
      );
    });
  }

  /**
   * New posts of `authorIds` above `sinceId` from the buffer, oldest first, at most `limit`. While no instance
   * hears from X ({@link serving}), nothing is read and `nextSinceId` is `sinceId`: the check's watermark does
   * not move, so the posts buffered once the stream is back are read from where it stood.
   */
  async tweetsByAuthorsSince(
    authorIds: readonly string[],
    sinceId: string,
    limit: number,
  ): Promise<AuthorTweets> {
    if (!(await this.serving())) return { items: [], nextSinceId: sinceId };
    const ids = [...new Set(authorIds.filter(isXId))];
    const since = sortKey(sinceId);
    const rows: { sort_key: string; tweet: string }[] = [];
    for (let i = 0; i < ids.length; i += AUTHORS_PER_QUERY) {
      rows.push(
        ...(await this.#o.db
          .selectFrom('x_stream_posts')
          .select(['sort_key', 'tweet'])
          .where('author_id', 'in', ids.slice(i, i + AUTHORS_PER_QUERY))
          .where('sort_key', '>', since)
          .orderBy('sort_key')
          .limit(limit + 1)
          .execute()),
      );
    }
    return page(rows, limit);
  }

  /** Posts that matched `query`'s rule above `sinceId`, oldest first, at most `limit` (as `tweetsByAuthorsSince`). */
  async keywordTweetsSince(query: string, sinceId: string, limit: number): Promise<AuthorTweets> {
    if (!(await this.serving())) return { items: [], nextSinceId: sinceId };
    const rows = await this.#o.db
      .selectFrom('x_stream_matches as m')
      .innerJoin('x_stream_posts as p', 'p.tweet_id', 'm.tweet_id')
      .select(['m.sort_key', 'p.tweet'])
      .where('m.rule_key', '=', ruleKey(query))
      .where('m.sort_key', '>', sortKey(sinceId))
      .orderBy('m.sort_key')
      .limit(limit + 1)
      .execute();
    return page(rows, limit);
  }

  /** The shared state: who holds the stream and when it last heard from X. */
  async health(): Promise<StreamHealth> {
    const row = await this.#o.db
      .selectFrom('x_stream_state')
      .select(['owner', 'alive_at', 'last_error'])
      .where('id', '=', STATE_ID)
      .executeTakeFirst();
    return {
      owner: row?.owner ?? null,
      aliveAt: row?.alive_at == null ? null : Number(row.alive_at),
      lastError: row?.last_error ?? null,
    };
  }

  /**
   * Whether some instance heard from X lately (within the stall timeout and a lease): the buffer is being
   * filled. Read from the shared state at most once a second; while it is not, a warning is logged once a
   * minute and the checks wait.
   */
  async serving(): Promise<boolean> {
    const clock = performance.now();
    if (!this.#health || clock - this.#health.at > 1_000)
      this.#health = { at: clock, value: await this.health() };
    const h = this.#health.value;
    const window = (this.#o.stallMs ?? 25_000) + (this.#o.leaseMs ?? 30_000);
    if (h.aliveAt !== null && this.#o.now() - h.aliveAt <= window) return true;
    if (clock - this.#warnedAt >= 60_000) {
      this.#warnedAt = clock;
      const why = h.lastError ? ` (last: ${h.lastError})` : h.owner ? '' : ' (no instance holds it)';
      this.#o.log?.(undefined, `x stream: not connected${why}; the monitors' checks wait for it`);
    }
    return false;
  }

  /** Takes or renews the lease; answers whether this instance holds it. */
  async #lease(now: number): Promise<boolean> {
    const db = this.#o.db;
    await db
      .insertInto('x_stream_state')
      .values({ id: STATE_ID, owner: null, lease_until: 0, alive_at: null, last_error: null })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const res = await db
      .updateTable('x_stream_state')
      .set({ owner: this.owner, lease_until: now + (this.#o.leaseMs ?? 30_000) })
      .where('id', '=', STATE_ID)
      .where((eb) =>
        eb.or([eb('owner', '=', this.owner), eb('owner', 'is', null), eb('lease_until', '<', now)]),
      )
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** The accounts and queries the active monitors watch. */
  async #wanted(): Promise<{ authors: Set<string>; queries: Set<string> }> {
    const db = this.#o.db;
    const accounts = await db
      .selectFrom('monitors')
      .select('x_user_id')
      .distinct()
      .where('is_active', '=', 1)
      .execute();
    const keywords = await db
      .selectFrom('keyword_monitors')
      .select('query')
      .distinct()
      .where('is_active', '=', 1)
      .execute();
    return {
      authors: new Set(accounts.map((r) => r.x_user_id).filter(isXId)),
      queries: new Set(keywords.map((r) => r.query)),
    };
  }

  /** Plans against X's rules, lets `check` refuse, then applies: additions first, then deletions. */
  async #plan(
    wanted: WantedRules,
    check?: (plan: RulePlan) => void,
    listed?: Awaited<ReturnType<StreamRulesClient['list']>>,
  ): Promise<RulePlan> {
    const existing = listed ?? (await this.#rules.list());
    const plan = planRules(existing, wanted, await this.#limits(), this.#o.now(), this.#o.graceMs);
    check?.(plan);
    if (plan.add.length) await this.#rules.add(plan.add);
    if (plan.delete.length) await this.#rules.delete(plan.delete);
    return plan;
  }

  /**
   * The limits plans keep to: the configured ones, the rule count lowered to X's cap for this app when X
   * names a smaller one (read at the first plan, then hourly; when X does not answer, the configured one).
   */
  async #limits(): Promise<RuleLimits> {
    const now = performance.now();
    if (now - this.#capReadAt >= 3_600_000) {
      this.#capReadAt = now;
      try {
        this.#cap = await this.#rules.capPerApp();
      } catch (err) {
        this.#o.log?.(err, 'x stream: the rule counts could not be read; the configured limit is used');
      }
    }
    const l = this.#o.limits;
    return this.#cap !== undefined && this.#cap < l.maxRules ? { ...l, maxRules: this.#cap } : l;
  }

  /** The refusal of a monitor the rule limits leave no room for. */
  #full(what: string): PlatformUnavailableError {
    return new PlatformUnavailableError(
      'x_api_unavailable',
      `${what} cannot be watched: the filtered stream's rules are full (${this.#limitsText()}); pause or delete a monitor, or raise the limits with a tier that has more`,
    );
  }

  #limitsText(): string {
    const l = this.#o.limits;
    const count =
      this.#cap !== undefined && this.#cap < l.maxRules
        ? `at most ${this.#cap} rules (X's cap for this app)`
        : `at most ${l.maxRules} rules (X_API_STREAM_MAX_RULES)`;
    return `${count} of ${l.maxRuleLength} characters (X_API_STREAM_MAX_RULE_LENGTH)`;
  }

  /** Runs rule changes one at a time in this process (a reconcile and a creation never interleave). */
  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#serial.then(work, work);
    this.#serial = run.catch(() => undefined);
    return run;
  }

  async #onMessage(m: StreamMessage): Promise<void> {
    const post = m.data as XTweet | undefined;
    if (!post || typeof post.id !== 'string' || !isXId(post.id)) {
      if (m.errors?.length) this.#o.log?.(m.errors, 'x stream: X sent an error on the stream');
      return;
    }
    const tweet: Tweet = mapTweet(post, expand(m.includes as XIncludes | undefined));
    const authorId = tweet.author?.id ?? post.author_id;
    const now = this.#o.now();
    const key = sortKey(post.id);
    const keys = new Set<string>();
    for (const r of m.matching_rules ?? []) {
      const t = parseTag(r.tag);
      if (t?.kind === 'q') keys.add(t.key);
    }
    await this.#o.db.transaction().execute(async (trx) => {
      if (authorId) {
        await trx
          .insertInto('x_stream_posts')
          .values({
            tweet_id: post.id,
            sort_key: key,
            author_id: authorId,
            tweet: JSON.stringify(tweet),
            received_at: now,
          })
          .onConflict((oc) => oc.column('tweet_id').doNothing())
          .execute();
      }
      for (const rule_key of keys) {
        await trx
          .insertInto('x_stream_matches')
          .values({ rule_key, sort_key: key, tweet_id: post.id, received_at: now })
          .onConflict((oc) => oc.columns(['rule_key', 'sort_key']).doNothing())
          .execute();
      }
    });
    await this.#alive(now);
  }

  #onNotice(n: StreamNotice): void {
    this.#o.onNotice?.(n);
    if (n.kind === 'connected' || n.kind === 'heartbeat') {
      void this.#alive(this.#o.now()).catch((err) => this.#o.log?.(err, 'x stream: state not written'));
    } else if (n.kind === 'disconnected') {
      void this.#o.db
        .updateTable('x_stream_state')
        .set({ last_error: n.reason.slice(0, 300) })
        .where('id', '=', STATE_ID)
        .where('owner', '=', this.owner)
        .execute()
        .catch((err) => this.#o.log?.(err, 'x stream: state not written'));
    }
  }

  /** Records that X was heard from (at most once a second). */
  async #alive(now: number): Promise<void> {
    if (now - this.#aliveWrittenAt < 1_000) return;
    this.#aliveWrittenAt = now;
    await this.#o.db
      .updateTable('x_stream_state')
      .set({ alive_at: now, last_error: null })
      .where('id', '=', STATE_ID)
      .where('owner', '=', this.owner)
      .execute();
  }

  async #prune(now: number): Promise<void> {
    const before = now - (this.#o.retentionMs ?? 24 * 3600_000);
    await this.#o.db.deleteFrom('x_stream_matches').where('received_at', '<', before).execute();
    await this.#o.db.deleteFrom('x_stream_posts').where('received_at', '<', before).execute();
  }
}

/** The first `limit` rows (already in id order, maybe from several queries) as tweets. */
function page(rows: { sort_key: string; tweet: string }[], limit: number): AuthorTweets {
  const sorted = rows.sort((a, b) => (a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : 0));
  const items = sorted.slice(0, Math.max(0, limit)).map((r) => JSON.parse(r.tweet) as Tweet);
  const last = items[items.length - 1];
  return { items, ...(sorted.length > items.length && last && { nextSinceId: last.id }) };
}
