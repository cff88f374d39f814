import { limits } from '@xsvc/sdk/contract';
import { type Kysely, sql } from 'kysely';
import type { Credits } from '../../core/billing/credits.js';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { afterMonitorWrite, type MonitorTable } from './monitor-rows.js';

/** One billing period of an active monitor. */
export const HOUR_MS = 3_600_000;

/** The ledger `operation` of a monitor's hourly charge. */
export const MONITOR_CHARGE = 'monitor:hourly';

/** Why the engine paused a monitor whose hour could not be paid. */
export const PAUSED_NO_CREDITS = 'insufficient_credits';

/**
 * Charges one hour of an active monitor (spec 8.2: about 21 credits per hour) in the caller's transaction
 * `trx` (the one that stores what the hour pays for, so a crash leaves both or neither) and returns when the
 * next hour falls due. Not enough credits is 402 `insufficient_credits`, with nothing charged.
 */
export async function chargeHour(
  credits: Credits,
  trx: Kysely<Database>,
  accountId: string,
  monitorId: string,
  now: number,
): Promise<number> {
  await credits.payWithin(
    trx,
    accountId,
    MONITOR_CHARGE,
    1,
    limits.monitorCreditsPerHour,
    `monitor:${monitorId}`,
  );
  return now + HOUR_MS;
}

/**
 * Billing on resume, in the transaction that resumes the monitor: an hour paid before the pause and still
 * running is not charged again; otherwise a new hour starts now. Returns the next due time.
 */
export async function resumeBilling(
  credits: Credits,
  trx: Kysely<Database>,
  accountId: string,
  monitorId: string,
  nextBillingAt: number,
  now: number,
): Promise<number> {
  return nextBillingAt > now ? nextBillingAt : chargeHour(credits, trx, accountId, monitorId, now);
}

/**
 * The due time after the hour due at `due` is charged. Hours that passed while no engine ran (the server
 * was down) are not billed: if the following hour is already over, the next one starts now.
 */
export function nextDue(due: number, now: number): number {
  return due + HOUR_MS > now ? due + HOUR_MS : now + HOUR_MS;
}

/**
 * Hours charged per check and table at most, so a check stays short when many monitors fall due together
 * (10,000 created at once are billed within 40 s; each next due time follows its own, so nothing drifts).
 */
const CHARGES_PER_CHECK = 250;

/**
 * The engine's hourly billing of the monitors in the shards it holds. Each due hour is first claimed by
 * moving `next_billing_at` on with a compare-and-set (two instances never charge one hour twice) and
 * charged through the credits ledger in the same transaction. A monitor whose hour cannot be paid is paused with `pausedReason`
 * `insufficient_credits` and its due time kept, so resuming after a top-up charges it first.
 */
export class HourlyBilling {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly credits: Credits,
  ) {}

  /** Bills what is due by `now` in `shards`; returns how many hours were charged and monitors paused. */
  async run(now: number, shards: readonly number[]): Promise<{ charged: number; paused: number }> {
    const total = { charged: 0, paused: 0 };
    if (shards.length === 0) return total;
    for (const table of ['monitors', 'keyword_monitors'] as const) {
      const r = await this.runTable(table, now, shards);
      total.charged += r.charged;
      total.paused += r.paused;
    }
    return total;
  }

  private async runTable(table: MonitorTable, now: number, shards: readonly number[]) {
    const out = { charged: 0, paused: 0 };
    const due = await sql<{ id: string; account_id: string; next_billing_at: bigint | number }>`
      select id, account_id, next_billing_at from ${sql.table(table)}
      where is_active = 1 and next_billing_at <= ${now} and shard in (${sql.join([...shards])})
      order by next_billing_at limit ${CHARGES_PER_CHECK}
    `.execute(this.db);
    for (const row of due.rows) {
      const at = num(row.next_billing_at);
      // The claim of the hour (a compare-and-set of its due time) and its charge commit together: a crash
      // between them can neither skip the hour nor, once committed, charge it again.
      const outcome = await this.db.transaction().execute(async (trx) => {
        const claimed = await sql`
          update ${sql.table(table)} set next_billing_at = ${nextDue(at, now)}
          where id = ${row.id} and is_active = 1 and next_billing_at = ${at}
        `.execute(trx);
        if (Number(claimed.numAffectedRows ?? 0) === 0) return 'taken' as const;
        const after = await this.credits.chargeWithin(
          trx,
          row.account_id,
          MONITOR_CHARGE,
          1,
          limits.monitorCreditsPerHour,
          `monitor:${row.id}`,
        );
        if (after !== undefined) return 'charged' as const;
        const paused = await sql<{ shard: bigint | number }>`
          update ${sql.table(table)} set is_active = 0, paused_reason = ${PAUSED_NO_CREDITS},
            paused_at = ${now}, next_billing_at = ${at}, rev = rev + 1
          where id = ${row.id}
          returning shard
        `.execute(trx);
        const shard = paused.rows[0]?.shard;
        if (shard !== undefined) await afterMonitorWrite(trx, table, shard);
        return 'paused' as const;
      });
      if (outcome === 'charged') out.charged++;
      else if (outcome === 'paused') out.paused++;
    }
    return out;
  }
}
