import { createHash } from 'node:crypto';
import type { Client } from '@xdevplatform/xdk';
import { PlatformUnavailableError } from '../../core/platform/platform.js';
import { XApiRequestError } from './client.js';
import { STREAM_RULES_ENDPOINT, type XRateBudget } from './rate-budget.js';
import { readFailure, userCallFailure } from './user-client.js';

/**
 * The filtered stream's rules kept in step with the monitors. Every rule this server adds carries a tag that
 * starts with {@link TAG_PREFIX}; rules with any other tag (or none) are another program's and are never
 * touched, though they count against the app's rule count limit.
 * - account monitors: `from:<id> OR from:<id> …` rules, packed up to the rule length limit, tagged
 *   `xsvc:from:<added at, epoch s>`; a delivered post is matched back by its author;
 * - keyword monitors: the monitor's query as the rule, tagged `xsvc:q:<key>:<added at>` where the key is
 *   {@link ruleKey} of the query; a delivered post is matched back by the tags of its `matching_rules`.
 * The time in a tag keeps a rule that was just added (for a monitor being created, maybe on another
 * instance, whose row is not yet committed) for {@link RULE_GRACE_MS} before a reconcile may delete it.
 */

/** The start of every tag this server gives a rule. */
export const TAG_PREFIX = 'xsvc:';

/** A rule just added is kept this long even when no monitor (yet) needs it. */
export const RULE_GRACE_MS = 120_000;

/** A rule of the app's rule set on X. */
export interface XStreamRule {
  id: string;
  value: string;
  tag?: string | undefined;
}

/** A rule to add. */
export interface NewRule {
  value: string;
  tag: string;
}

/** The limits of the app's tier (config `X_API_STREAM_MAX_RULES`, `X_API_STREAM_MAX_RULE_LENGTH`). */
export interface RuleLimits {
  maxRules: number;
  maxRuleLength: number;
}

/** What the monitors need: the watched account ids and the keyword queries. */
export interface WantedRules {
  authors: ReadonlySet<string>;
  queries: ReadonlySet<string>;
}

/** The changes that bring the rule set to what the monitors need; what would not fit is `refused`. */
export interface RulePlan {
  add: NewRule[];
  /** Ids of our rules to delete (after the additions, so no watched account is uncovered in between). */
  delete: string[];
  refused: { authors: string[]; queries: string[] };
  /** When a rule kept only for its youth passes the grace: plan again then, to delete it. */
  settleAt?: number | undefined;
}

/** The key of a keyword query in tags and in the buffer's matches: 16 hex digits of its SHA-256. */
export function ruleKey(query: string): string {
  return createHash('sha256').update(query).digest('hex').slice(0, 16);
}

/** What one of our tags says; `undefined` for another program's rule. */
export function parseTag(
  tag: string | undefined,
): { kind: 'from'; at: number } | { kind: 'q'; key: string; at: number } | undefined {
  if (!tag?.startsWith(TAG_PREFIX)) return undefined;
  const from = /^xsvc:from:(\d+)$/.exec(tag);
  if (from) return { kind: 'from', at: Number(from[1]) * 1000 };
  const q = /^xsvc:q:([0-9a-f]{16}):(\d+)$/.exec(tag);
  if (q) return { kind: 'q', key: q[1] as string, at: Number(q[2]) * 1000 };
  return undefined;
}

const fromTag = (now: number) => `${TAG_PREFIX}from:${Math.floor(now / 1000)}`;
const queryTag = (query: string, now: number) => `${TAG_PREFIX}q:${ruleKey(query)}:${Math.floor(now / 1000)}`;

/** The account ids of a `from:` rule. */
export function ruleAuthors(value: string): string[] {
  return [...value.matchAll(/\bfrom:(\d{1,19})\b/g)].map((m) => m[1] as string);
}

/** Packs account ids into `from:a OR from:b …` rules of at most `maxLength` characters. */
export function packAuthors(ids: readonly string[], maxLength: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const id of ids) {
    const term = `from:${id}`;
    const next = current ? `${current} OR ${term}` : term;
    if (next.length <= maxLength) current = next;
    else {
      if (current) out.push(current);
      current = term;
    }
  }
  if (current) out.push(current);
  return out;
}

function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Plans the changes from the rules on X (`existing`) to what the monitors need (`wanted`), within `limits`:
 * keeps our rules still needed (and those younger than `graceMs`), deletes our others, adds keyword rules and
 * packs the uncovered accounts into new `from:` rules; when that exceeds the rule count, repacks every account
 * rule from scratch; what still does not fit is refused, keyword queries first, then the last accounts.
 */
export function planRules(
  existing: readonly XStreamRule[],
  wanted: WantedRules,
  limits: RuleLimits,
  now: number,
  graceMs = RULE_GRACE_MS,
): RulePlan {
  const foreign = existing.filter((r) => !parseTag(r.tag)).length;
  const young = (at: number) => now - at < graceMs;
  const refused = { authors: [] as string[], queries: [] as string[] };
  let settleAt: number | undefined;
  const keptYoung = (at: number) => {
    settleAt = Math.min(settleAt ?? Number.POSITIVE_INFINITY, at + graceMs);
  };

  // Keyword rules.
  const wantedByKey = new Map([...wanted.queries].map((q) => [ruleKey(q), q]));
  const keptQueries = new Set<string>();
  const qDelete: string[] = [];
  let qKept = 0;
  for (const r of existing) {
    const t = parseTag(r.tag);
    if (t?.kind !== 'q') continue;
    const q = wantedByKey.get(t.key);
    if (q === r.value && !keptQueries.has(q)) {
      keptQueries.add(q);
      qKept++;
    } else if (young(t.at)) {
      qKept++;
      keptYoung(t.at);
    } else qDelete.push(r.id);
  }
  const qAdd: NewRule[] = [];
  for (const q of wanted.queries) {
    if (keptQueries.has(q)) continue;
    if (q.length > limits.maxRuleLength) refused.queries.push(q);
    else qAdd.push({ value: q, tag: queryTag(q, now) });
  }

  // Account rules.
  const fromRules = existing.filter((r) => parseTag(r.tag)?.kind === 'from');
  // A repack replaces every account rule; the accounts of young ones are packed again with the others.
  const plan = (repack: boolean) => {
    const kept: XStreamRule[] = [];
    const del: string[] = [];
    const need = new Set(wanted.authors);
    for (const r of fromRules) {
      const at = (parseTag(r.tag) as { at: number }).at;
      const ids = ruleAuthors(r.value);
      if (repack) {
        del.push(r.id);
        if (young(at)) for (const id of ids) need.add(id);
      } else if (ids.length > 0 && ids.every((id) => wanted.authors.has(id))) kept.push(r);
      else if (young(at)) {
        kept.push(r);
        keptYoung(at);
      } else del.push(r.id);
    }
    const covered = new Set(kept.flatMap((r) => ruleAuthors(r.value)));
    const pending = [...need].filter((id) => !covered.has(id)).sort(compareIds);
    return { kept, del, values: packAuthors(pending, limits.maxRuleLength) };
  };
  let accounts = plan(false);
  const total = (a: typeof accounts) => foreign + qKept + qAdd.length + a.kept.length + a.values.length;
  if (total(accounts) > limits.maxRules) {
    const repacked = plan(true);
    if (total(repacked) < total(accounts)) accounts = repacked;
  }
  // Over the count: refuse new keyword rules, then the last packed accounts.
  while (total(accounts) > limits.maxRules && qAdd.length > 0)
    refused.queries.push((qAdd.pop() as NewRule).value);
  while (total(accounts) > limits.maxRules && accounts.values.length > 0) {
    refused.authors.push(...ruleAuthors(accounts.values.pop() as string));
  }
  return {
    add: [...qAdd, ...accounts.values.map((value) => ({ value, tag: fromTag(now) }))],
    delete: [...qDelete, ...accounts.del],
    refused,
    ...(settleAt !== undefined && { settleAt }),
  };
}

/** A rule X did not take, as its answer lists it. */
interface RuleProblem {
  value?: string;
  id?: string;
  title?: string;
  detail?: string;
  details?: string[];
}

const isDuplicate = (p: RuleProblem) => /duplicate/i.test(`${p.title ?? ''}`);

/** Why X did not take a rule, in its own words. */
function problemText(p: RuleProblem): string {
  return [p.title, ...(p.details ?? []), p.detail].filter(Boolean).join(': ');
}

/**
 * The app's rule set on X through xdk's `StreamClient` (`GET` and `POST /2/tweets/search/stream/rules`, the
 * app bearer token). Every failure is a `PlatformUnavailableError`, as for the other reads. With the app's
 * request `budget` (whose figures the client's answers feed, see `userClient`'s `onAnswer`), a rule edit
 * is not sent while X said the window of `POST …/rules` is spent: it fails `x_api_rate_limited` at once.
 */
export class StreamRulesClient {
  constructor(
    private readonly x: Client,
    private readonly now: () => number,
    private readonly budget?: Pick<XRateBudget, 'spentUntil'> | undefined,
  ) {}

  /** Every rule of the app (1,000 a page). */
  async list(): Promise<XStreamRule[]> {
    const out: XStreamRule[] = [];
    let token: string | undefined;
    for (let page = 0; page < 1_000; page++) {
      const res = await this.#call('the stream rules lookup', () =>
        this.x.stream.getRules({ maxResults: 1000, ...(token && { paginationToken: token }) }),
      );
      for (const r of res.data ?? [])
        if (r.id && r.value !== undefined) out.push({ id: r.id, value: r.value, tag: r.tag });
      token = res.meta?.nextToken;
      if (!token) break;
    }
    return out;
  }

  /**
   * X's rule cap for this app (`GET /2/tweets/search/stream/rules/counts`, `cap_per_client_app`), or
   * `undefined` when X does not say.
   */
  async capPerApp(): Promise<number | undefined> {
    const res = await this.#call('the stream rule counts', () =>
      this.x.stream.getRuleCounts({ rulesCountFields: 'cap_per_client_app' }),
    );
    const cap = Number((res.data as { capPerClientApp?: unknown } | undefined)?.capPerClientApp);
    return Number.isInteger(cap) && cap > 0 ? cap : undefined;
  }

  /** Adds rules (100 a request); a rule X already has (`DuplicateRule`) counts as added. */
  async add(rules: readonly NewRule[]): Promise<void> {
    for (let i = 0; i < rules.length; i += 100) {
      const batch = rules.slice(i, i + 100);
      const res = await this.#edit('the stream rules update', () =>
        this.x.stream.updateRules({ add: batch }),
      );
      const problems = ((res.errors ?? []) as RuleProblem[]).filter((p) => !isDuplicate(p));
      const first = problems[0];
      if (first) {
        throw new PlatformUnavailableError(
          'x_api_unavailable',
          `X did not add the stream rule "${first.value ?? ''}": ${problemText(first)}`,
        );
      }
    }
  }

  /** Deletes rules by id (500 a request). */
  async delete(ids: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids.slice(i, i + 500);
      await this.#edit('the stream rules update', () =>
        this.x.stream.updateRules({ delete: { ids: batch } }),
      );
    }
  }

  /**
   * Asks X whether `value` is a valid rule without adding it (`dry_run=true`); an invalid one is X's
   * refusal of the caller's input (400 `invalid_input`), in X's words.
   */
  async validate(value: string): Promise<void> {
    const res = await this.#edit('the stream rule check', () =>
      this.x.stream.updateRules({ add: [{ value }] }, { dryRun: true }),
    );
    const problem = ((res.errors ?? []) as RuleProblem[]).find((p) => !isDuplicate(p));
    if (problem) {
      throw new XApiRequestError(
        `X's filtered stream does not take "${value}" as a rule: ${problemText(problem)}`,
        400,
        undefined,
      );
    }
  }

  /** A `POST …/rules` request: held while the budget says its window is spent, else {@link #call}. */
  #edit<T>(what: string, send: () => Promise<T>): Promise<T> {
    const until = this.budget?.spentUntil(STREAM_RULES_ENDPOINT);
    if (until !== undefined) {
      const wait = Math.max(1, Math.ceil((until - this.now()) / 1000));
      return Promise.reject(
        new PlatformUnavailableError(
          'x_api_rate_limited',
          `the X API rate limit of ${STREAM_RULES_ENDPOINT} is spent, so ${what} was not sent; the window resets in ${wait} s`,
          wait,
        ),
      );
    }
    return this.#call(what, send);
  }

  async #call<T>(what: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (err) {
      const failure = userCallFailure(err);
      if (failure.kind === 'answered' && (failure.status === 401 || failure.status === 403)) {
        throw new PlatformUnavailableError(
          'x_api_unauthorized',
          `the X API refused the app token for ${what} (${failure.status}: ${failure.detail}); the filtered stream needs an X app tier that has it`,
        );
      }
      throw readFailure(failure, what, this.now());
    }
  }
}
