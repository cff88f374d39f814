import type SQLite from 'better-sqlite3';
import {
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';

/**
 * Kysely's SQLite dialect, whose rollbacks look first whether there is still something to roll back.
 * On some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM, SQLITE_BUSY in a write, SQLITE_INTERRUPT)
 * SQLite rolls the whole transaction back by itself before the statement's error reaches the caller.
 * Kysely then sends `rollback` (or `rollback to` a savepoint) as usual, which fails with "cannot rollback -
 * no transaction is active"; that error replaces the real one, so a full disk looked like a bug. Here a
 * rollback of a transaction that SQLite ended already is skipped, and the statement's own error is what the
 * caller sees.
 */
export class GuardedSqliteDialect extends SqliteDialect {
  readonly #sqlite: SQLite.Database;
  readonly #config: SqliteDialectConfig;

  /** `sqlite` is the handle `config.database` runs on (the dialect asks it whether a transaction is open). */
  constructor(sqlite: SQLite.Database, config: SqliteDialectConfig) {
    super(config);
    this.#sqlite = sqlite;
    this.#config = config;
  }

  override createDriver(): Driver {
    return new GuardedSqliteDriver(this.#sqlite, this.#config);
  }
}

/** {@link SqliteDriver} whose rollbacks are skipped when SQLite ended the transaction itself. */
class GuardedSqliteDriver extends SqliteDriver {
  readonly #sqlite: SQLite.Database;

  constructor(sqlite: SQLite.Database, config: SqliteDialectConfig) {
    super(config);
    this.#sqlite = sqlite;
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.#sqlite.inTransaction) return;
    await super.rollbackTransaction(connection);
  }

  override async rollbackToSavepoint(
    connection: DatabaseConnection,
    savepointName: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    // The whole transaction is gone with its savepoints. Going on as if only the savepoint's work were
    // undone would run the caller's next statements outside any transaction: refuse, saying why.
    if (!this.#sqlite.inTransaction)
      throw Object.assign(
        new Error(`SQLite rolled back the whole transaction (savepoint ${savepointName} is gone with it)`),
        { code: 'SQLITE_ABORT_ROLLBACK' },
      );
    await super.rollbackToSavepoint(connection, savepointName, compileQuery);
  }
}
