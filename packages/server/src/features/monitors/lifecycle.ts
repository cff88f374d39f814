import type { Insertable, Updateable } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { HttpError } from '../../core/http/errors.js';
import type { HandlerContext } from '../../core/http/handler.js';
import { idsOf } from '../../core/ids/index.js';
import type { Services } from '../../core/services.js';
import { chargeHour, resumeBilling } from './billing.js';
import {
  deleteOwnedRow,
  findOwnedRow,
  insertUniqueRow,
  listOwnedRows,
  type MonitorTable,
  type RowOf,
  shardOf,
  updateMonitorRow,
} from './monitor-rows.js';
import { checkIntervalSeconds, forgetPace } from './pace.js';
import type { MonitorLifecycleColumns } from './tables.js';

/** What sets one kind of monitor (account or keyword) apart in the life cycle both kinds share. */
export interface MonitorKind<T extends MonitorTable, A> {
  readonly table: T;
  /** How messages name the kind (`monitor`, `keyword monitor`). */
  readonly noun: string;
  /** The column an account cannot hold twice (the watched user, the query's key). */
  readonly unique: 'x_user_id' | 'query_key';
  /** A row in the API's shape. */
  readonly toApi: (row: RowOf<T>) => A;
}

/** The parts of a handler's context the shared operations read. */
export type CallerContext = Pick<HandlerContext, 'services' | 'requirePrincipal'>;

/** The context of an operation on one monitor (path parameter `id`). */
export type MonitorContext = CallerContext & { readonly params: { readonly id: string } };

/** The changes an update takes, alike for both kinds. */
export interface LifecycleChanges {
  readonly eventTypes?: readonly string[] | undefined;
  readonly isActive?: boolean | undefined;
}

/** What a create or a resume writes besides the shared columns: the kind's own columns and the watermark. */
export type StartColumns<T extends MonitorTable> = Omit<
  Insertable<Database[T]>,
  keyof MonitorLifecycleColumns
> & {
  baseline_tweet_id: string;
};

/** A monitor to create, once the kind checked its input and took the watermark. */
export interface NewMonitor<T extends MonitorTable> {
  readonly accountId: string;
  readonly eventTypes: readonly string[];
  readonly now: number;
  readonly columns: StartColumns<T>;
  /** The 409 to answer when a concurrent request created the same monitor first. */
  readonly duplicate: () => Promise<HttpError>;
}

/** A monitor in the API's shape with its effective check interval. */
export type Paced<A> = A & { checkIntervalSeconds: number };

/** The operations of one kind of monitor that both kinds share (spec 4.5 and the keyword-monitor paths). */
export interface MonitorLifecycle<T extends MonitorTable, A0, A = Paced<A0>> {
  /** The list operation: the caller's monitors of the kind (at most 200) and how many there are. */
  list(ctx: CallerContext): Promise<{ monitors: A[]; total: number }>;
  /** The get operation: one monitor of the caller in the API's shape, or 404. */
  get(ctx: MonitorContext): Promise<A>;
  /** The delete operation: stops a monitor for good, or 404. */
  remove(ctx: MonitorContext): Promise<{ success: true }>;
  /**
   * The update operation: replaces the event types, pauses or resumes. A resume takes a new watermark
   * (`restart`, which may refuse with the kind's error) and charges a new hour unless the paid one is still
   * running. Returns the monitor as it now is; 404 when the caller has no such monitor.
   */
  update(
    ctx: MonitorContext & { readonly body: LifecycleChanges },
    restart: (row: RowOf<T>, now: number) => Promise<Updateable<Database[T]> & { baseline_tweet_id: string }>,
  ): Promise<A>;
  /**
   * Creates a monitor: charges its first hour (402 `insufficient_credits` without the credits), stores it
   * active with its watermark, and returns it in the API's shape. When a concurrent request stored the same
   * monitor in between, nothing is charged and `m.duplicate()` is thrown.
   */
  create(services: Services, m: NewMonitor<T>): Promise<A>;
  /** The caller's monitor of the kind that holds `value` in the kind's unique column, if any. */
  findDuplicate(services: Services, accountId: string, value: string): Promise<RowOf<T> | undefined>;
}

/** A concurrent request stored the same monitor first: the create's transaction rolls back. */
class DuplicateMonitor extends Error {}

/** The shared life cycle for one kind of monitor. */
export function monitorLifecycle<T extends MonitorTable, A>(kind: MonitorKind<T, A>): MonitorLifecycle<T, A> {
  const { table } = kind;
  // Every monitor shows the effective interval its checks run at: the platform's request budget shared by
  // every active monitor (the nominal second on the simulated platform).
  const paced = async (services: Services, rows: readonly RowOf<T>[]): Promise<Paced<A>[]> => {
    const checkInterval = await checkIntervalSeconds(services);
    return rows.map((row) => ({ ...kind.toApi(row), checkIntervalSeconds: checkInterval }));
  };
  const one = async (services: Services, row: RowOf<T>): Promise<Paced<A>> =>
    (await paced(services, [row]))[0] as Paced<A>;
  const notFound = (id: string) => new HttpError('not_found', `no ${kind.noun} ${id}`);
  const require = async (services: Services, accountId: string, id: string): Promise<RowOf<T>> => {
    const row = await findOwnedRow(services.database.db, table, accountId, id);
    if (!row) throw notFound(id);
    return row;
  };

  return {
    async list(ctx) {
      const { accountId } = ctx.requirePrincipal();
      const { rows, total } = await listOwnedRows(ctx.services.database.db, table, accountId);
      return { monitors: await paced(ctx.services, rows), total };
    },

    async get(ctx) {
      const { accountId } = ctx.requirePrincipal();
      return one(ctx.services, await require(ctx.services, accountId, ctx.params.id));
    },

    async remove(ctx) {
      const { accountId } = ctx.requirePrincipal();
      if (!(await deleteOwnedRow(ctx.services.database.db, table, accountId, ctx.params.id)))
        throw notFound(ctx.params.id);
      forgetPace(ctx.services.platform);
      return { success: true };
    },

    async update(ctx, restart) {
      const { accountId } = ctx.requirePrincipal();
      const { services } = ctx;
      const row = await require(services, accountId, ctx.params.id);
      const { eventTypes, isActive } = ctx.body;
      const now = services.clock.now();
      const set: Updateable<MonitorLifecycleColumns> = {};
      if (eventTypes) set.event_types = JSON.stringify(eventTypes);
      const active = Number(row.is_active) === 1;
      if (isActive === false && active)
        Object.assign(set, { is_active: 0, paused_reason: null, paused_at: null });
      const { db } = services.database;
      if (isActive === true && !active) {
        const start = await restart(row, now);
        const billedUntil = Number(row.next_billing_at);
        // The resume (a compare-and-set on the paused row) and its hour commit together: a crash leaves
        // both or neither, and two resumes at once charge one hour.
        await db.transaction().execute(async (trx) => {
          const resumed = await trx
            .updateTable(table as MonitorTable)
            .set({ is_active: 1 })
            .where('id', '=', row.id)
            .where('is_active', '=', 0)
            .executeTakeFirst();
          if (Number(resumed.numUpdatedRows) !== 1) return; // resumed by another request meanwhile
          const nextBillingAt = await resumeBilling(
            services.credits,
            trx,
            accountId,
            row.id,
            billedUntil,
            now,
          );
          const resume = {
            ...set,
            is_active: 1,
            paused_reason: null,
            paused_at: null,
            next_billing_at: nextBillingAt,
            baseline_at: now,
            ...start,
          };
          await updateMonitorRow(trx, table, row.id, resume as Updateable<Database[T]>);
        });
      } else if (Object.keys(set).length)
        await updateMonitorRow(db, table, row.id, set as Updateable<Database[T]>);
      if (isActive !== undefined) forgetPace(services.platform);
      return one(services, await require(services, accountId, row.id));
    },

    async create(services, m) {
      const { db } = services.database;
      const id = idsOf(services.database).next(m.now);
      const row = {
        id,
        account_id: m.accountId,
        event_types: JSON.stringify(m.eventTypes),
        is_active: 1,
        created_at: m.now,
        next_billing_at: m.now,
        paused_reason: null,
        paused_at: null,
        baseline_at: m.now,
        shard: shardOf(id),
        rev: 1,
        ...m.columns,
      } as Insertable<Database[T]>;
      // The monitor and its first hour commit together; a duplicate (another request created it first)
      // rolls the hour back.
      const inserted = await db
        .transaction()
        .execute(async (trx) => {
          const nextBillingAt = await chargeHour(services.credits, trx, m.accountId, id, m.now);
          if (!(await insertUniqueRow(trx, table, { ...row, next_billing_at: nextBillingAt }, kind.unique)))
            throw new DuplicateMonitor();
          return true;
        })
        .catch((err: unknown) => {
          if (err instanceof DuplicateMonitor) return false;
          throw err;
        });
      if (!inserted) throw await m.duplicate();
      forgetPace(services.platform);
      return one(services, await require(services, m.accountId, id));
    },

    findDuplicate(services, accountId, value) {
      return findOwnedRow(services.database.db, table, accountId, value, kind.unique);
    },
  };
}
