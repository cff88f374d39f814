import { describe, expect, it } from 'vitest';
import { timeUuid as ledgerRowId } from '../../src/core/ids/index.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('ledger row ids', () => {
  it('are version 7 UUIDs carrying their millisecond', () => {
    const ms = Date.UTC(2030, 0, 1);
    const id = ledgerRowId(ms);
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(ms);
  });

  it('increase strictly, within a millisecond, past 4096 of them, and when the clock steps back', () => {
    const ms = Date.UTC(2031, 0, 1);
    const ids = [
      ...Array.from({ length: 5_000 }, () => ledgerRowId(ms)),
      ...Array.from({ length: 10 }, () => ledgerRowId(ms - 1_000)),
      ledgerRowId(ms + 10_000),
    ];
    for (const id of ids) expect(id).toMatch(UUID_V7);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
