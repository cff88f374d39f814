import { describe, expect, it } from 'vitest';
import { isCatalogRace } from '../../src/core/db/migrate.js';

describe('migrations on a shared Postgres', () => {
  it("retries only when another schema vanished during Kysely's table listing", () => {
    expect(isCatalogRace(new Error('schema "t_00eb6517aaf5" does not exist'), 't_aaaaaaaaaaaa')).toBe(true);
    expect(
      isCatalogRace(new Error('relation "t_00eb6517aaf5.events" does not exist'), 't_aaaaaaaaaaaa'),
    ).toBe(true);
    // A column of another schema's table dropped while the listing's pg_get_serial_sequence read it.
    const column = Object.assign(new Error('column "topic" of relation "drafts" does not exist'), {
      code: '42703',
      routine: 'pg_get_serial_sequence',
    });
    expect(isCatalogRace(column, 't_aaaaaaaaaaaa')).toBe(true);
    // The same message from a migration of ours (no listing involved) is a real error.
    const ownColumn = Object.assign(new Error('column "topic" of relation "drafts" does not exist'), {
      code: '42703',
      routine: 'errorMissingColumn',
    });
    expect(isCatalogRace(ownColumn, 't_aaaaaaaaaaaa')).toBe(false);
    // Our own schema missing, or any other failure, is a real error.
    expect(isCatalogRace(new Error('schema "t_aaaaaaaaaaaa" does not exist'), 't_aaaaaaaaaaaa')).toBe(false);
    expect(
      isCatalogRace(new Error('relation "t_aaaaaaaaaaaa.events" does not exist'), 't_aaaaaaaaaaaa'),
    ).toBe(false);
    expect(isCatalogRace(new Error('syntax error at or near "tabel"'), 't_aaaaaaaaaaaa')).toBe(false);
  });
});
