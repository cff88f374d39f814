import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError } from '../../src/core/http/errors.js';
import {
  IdempotencyRace,
  idempotencyKey,
  lookup,
  remember,
  requestHash,
} from '../../src/core/idempotency/idempotency.js';
import { ENGINES, useMigratedDatabase } from '../helpers/server.js';

const messages = { missing: 'need a key', invalid: 'bad key' };
const op = (required: boolean) =>
  ({
    id: 'unitOp',
    headers: { 'Idempotency-Key': { required, description: '', schema: z.string().regex(/^[a-z]{3,8}$/) } },
  }) as never;
const conflict = () => new HttpError('idempotency_key_conflict', 'another request');

describe('Idempotency-Key headers and request hashes', () => {
  it('reads a key as the operation declares it', () => {
    expect(idempotencyKey({ 'idempotency-key': 'abcd' }, op(true), messages)).toBe('abcd');
    expect(idempotencyKey({}, op(false), messages)).toBeUndefined();
    expect(() => idempotencyKey({}, op(true), messages)).toThrow('need a key');
    expect(() => idempotencyKey({ 'idempotency-key': '' }, op(true), messages)).toThrow('need a key');
    expect(() => idempotencyKey({ 'idempotency-key': 'A B' }, op(false), messages)).toThrow('bad key');
    expect(() => idempotencyKey({}, { id: 'none' } as never, messages)).toThrow('declares no');
  });

  it('hashes requests canonically (key order, files by digest)', async () => {
    const a = await requestHash(['op', { b: 1, a: [2, { d: 3, c: undefined }] }]);
    const b = await requestHash(['op', { a: [2, { d: 3 }], b: 1 }]);
    expect(a).toBe(b);
    expect(await requestHash(['op', { a: 1 }])).not.toBe(await requestHash(['other', { a: 1 }]));
    const f1 = await requestHash([new Blob(['x'], { type: 'text/plain' })]);
    expect(f1).toBe(await requestHash([new Blob(['x'], { type: 'text/plain' })]));
    expect(f1).not.toBe(await requestHash([new Blob(['y'], { type: 'text/plain' })]));
  });
});

describe.each(ENGINES)('the idempotency store (%s)', (engine) => {
  const current = useMigratedDatabase(engine);

  it('replays the answer of the same request, 409 for another, nothing for a new key or scope', async () => {
    const database = current();
    const req = { scope: 'unit:a', key: 'k1', hash: 'h1' };
    expect(await lookup(database.db, req, conflict)).toBeUndefined();
    await database.db.transaction().execute((trx) => remember(trx, { ...req, answer: '{"n":1}', now: 1 }));
    expect(await lookup(database.db, req, conflict)).toBe('{"n":1}');
    await expect(lookup(database.db, { ...req, hash: 'h2' }, conflict)).rejects.toThrow('another request');
    expect(await lookup(database.db, { ...req, scope: 'unit:b' }, conflict)).toBeUndefined();
  });

  it('rolls back the work of a request that lost the race', async () => {
    const database = current();
    const req = { scope: 'unit:r', key: 'k', hash: 'h' };
    await database.db.transaction().execute((trx) => remember(trx, { ...req, answer: 'first', now: 1 }));
    const lost = database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('idempotency_keys')
        .values({ scope: 'unit:side', key: 'k', request_hash: 'x', answer: 'x', created_at: 1 })
        .execute();
      await remember(trx, { ...req, answer: 'second', now: 2 });
    });
    await expect(lost).rejects.toBeInstanceOf(IdempotencyRace);
    const side = await database.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('scope', '=', 'unit:side')
      .execute();
    expect(side).toEqual([]);
  });

  it('stores one answer for two concurrent identical requests; both answer it', async () => {
    const database = current();
    const req = { scope: 'unit:c', key: 'k', hash: 'h' };
    const run = async (answer: string) => {
      const prior = await lookup(database.db, req, conflict);
      if (prior !== undefined) return prior;
      try {
        await database.db.transaction().execute(async (trx) => {
          await remember(trx, { ...req, answer, now: 1 });
          await new Promise((r) => setTimeout(r, 20));
        });
        return answer;
      } catch (err) {
        if (!(err instanceof IdempotencyRace)) throw err;
        return (await lookup(database.db, req, conflict)) as string;
      }
    };
    const answers = await Promise.all(['one', 'two', 'three', 'four'].map(run));
    expect(new Set(answers).size).toBe(1);
    const rows = await database.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', 'unit:c')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.answer).toBe(answers[0]);
  });
});
