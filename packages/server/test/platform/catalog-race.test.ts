import { describe, expect, it } from 'vitest';
import { isCatalogRace } from '../../src/core/db/migrate.js';

describe('migrations on a shared Postgres', () => {
  it("retries only when another schema vanished during Kysely's table listing", () => {
    expect(isCatalogRace(new Error('schema "t_00eb6517aaf5" does not exist'), 't_aaaaaaaaaaaa')).toBe(true);
    expect(
      isCatalogRace(new Error('relation "t_00eb6517aaf5.events" does not exist'), 't_aaaaaaaaaaaa'),
    ).toBe(true);
    // Our own schema missing, or any other failure, is a real error.
    expect(isCatalogRace(new Error('schema "t_aaaaaaaaaaaa" does not exist'), 't_aaaaaaaaaaaa')).toBe(false);
    expect(
      isCatalogRace(new Error('relation "t_aaaaaaaaaaaa.events" does not exist'), 't_aaaaaaaaaaaa'),
    ).toBe(false);
    expect(isCatalogRace(new Error('syntax error at or near "tabel"'), 't_aaaaaaaaaaaa')).toBe(false);
  });
});
