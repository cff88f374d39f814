import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { AnyOperation } from '../../src/contract/operation.js';
import {
  bulkRetryXAccounts,
  connectXAccount,
  disconnectXAccount,
  getXAccount,
  getXAccountConnectionAttempt,
  listXAccounts,
  reauthXAccount,
  submitXAccountConnectionChallenge,
  xAccountsOperations,
} from '../../src/contract/operations/x-accounts.js';
import {
  createTweet,
  getWriteActionStatus,
  xWriteOperations,
} from '../../src/contract/operations/x-write.js';
import {
  WRITE_ACTION_TERMINAL_STATUSES,
  WRITE_ACTIONS,
  type WriteAction,
  WriteActionErrorSchema,
  WriteActionSchema,
} from '../../src/contract/schemas/write-action.js';
import {
  ConnectionAttemptSchema,
  ConnectionChallengeSchema,
  XAccountSchema,
} from '../../src/contract/schemas/x-account.js';
import { loosen, strictify } from '../../src/contract/zod-helpers.js';

const writes = (xWriteOperations as readonly AnyOperation[]).filter((op) => op.id !== 'getWriteActionStatus');
const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'pic.png', { type: 'image/png' });

function ok(schema: z.ZodType | null, value: unknown): unknown {
  expect(schema).not.toBeNull();
  const r = schema!.safeParse(value);
  if (!r.success) throw new Error(JSON.stringify(r.error.issues));
  return r.data;
}
function bad(schema: z.ZodType | null, value: unknown): void {
  expect(schema).not.toBeNull();
  expect(schema!.safeParse(value).success).toBe(false);
}

/** One valid and one invalid request (params + body) per write. */
const writeCases: Record<
  string,
  { params?: unknown; badParams?: unknown; body: Record<string, unknown>; badBody: Record<string, unknown> }
> = {
  createTweet: { body: { account: '@me', text: 'hello' }, badBody: { account: 'me' } },
  deleteTweet: {
    params: { id: '1790000000000000000' },
    badParams: { id: 'abc' },
    body: { account: 'me' },
    badBody: {},
  },
  likeTweet: {
    params: { id: '1790000000000000000' },
    badParams: { id: '' },
    body: { account: 'me' },
    badBody: { account: '' },
  },
  unlikeTweet: {
    params: { id: '1' },
    badParams: { id: 'x/1' },
    body: { account: '42' },
    badBody: { account: 'a b' },
  },
  retweet: { params: { id: '1' }, badParams: {}, body: { account: 'me' }, badBody: { account: 7 } },
  unretweet: { params: { id: '1' }, badParams: { id: '1.5' }, body: { account: 'me' }, badBody: {} },
  followUser: {
    params: { id: '@jack' },
    badParams: { id: 'not a user!' },
    body: { account: 'me' },
    badBody: {},
  },
  unfollowUser: {
    params: { id: '12' },
    badParams: { id: '' },
    body: { account: 'me' },
    badBody: { account: '@' },
  },
  removeFollower: {
    params: { id: 'spambot' },
    badParams: { id: 'x'.repeat(16) },
    body: { account: 'me' },
    badBody: {},
  },
  sendDm: {
    params: { userId: '783214' },
    badParams: { userId: 'jack' },
    body: { account: 'me', text: 'hi', media_ids: ['1234'] },
    badBody: { account: 'me', text: '' },
  },
  uploadMedia: { body: { account: 'me', file: png(), is_long_video: 'false' }, badBody: { account: 'me' } },
  updateProfile: { body: { account: 'me', description: 'bio' }, badBody: { account: 'me' } },
  updateAvatar: {
    body: { account: 'me', url: 'https://example.com/a.png' },
    badBody: { account: 'me', url: 'https://example.com/a.png', file: png() },
  },
  updateBanner: {
    body: { account: 'me', file: png() },
    badBody: { account: 'me', url: 'ftp://example.com/b.png' },
  },
  createCommunity: { body: { account: 'me', name: 'Rust builders' }, badBody: { account: 'me', name: '  ' } },
  deleteCommunity: {
    params: { id: '1600000000000000000' },
    badParams: { id: 'rust' },
    body: { account: 'me', community_name: 'Rust builders' },
    badBody: { account: 'me' },
  },
  joinCommunity: { params: { id: '16' }, badParams: { id: 'x' }, body: { account: 'me' }, badBody: {} },
  leaveCommunity: { params: { id: '16' }, badParams: { id: '-1' }, body: { account: 'me' }, badBody: {} },
};

const pending: WriteAction = {
  object: 'x_write_action',
  id: 'wa_01HZX3K7Q2',
  writeActionId: 'wa_01HZX3K7Q2',
  action: 'create_tweet',
  status: 'pending_confirmation',
  terminal: false,
  retryable: false,
  safeToRetry: false,
  statusUrl: 'https://api.example.com/api/v1/x/write-actions/wa_01HZX3K7Q2',
  pollAfterMs: 2000,
  charged: false,
  chargedCredits: '0',
  billing: { status: 'pending', charged: false, chargedCredits: '0', plannedCredits: '1' },
  request: { hash: 'a'.repeat(64), payload: { text: 'hello' } },
  account: { id: '1843', username: 'myhandle' },
  target: null,
  targetId: null,
  result: null,
  nextAction: {
    type: 'poll',
    afterMs: 2000,
    url: 'https://api.example.com/api/v1/x/write-actions/wa_01HZX3K7Q2',
  },
  requestHash: 'a'.repeat(64),
  requestId: 'req_9f2c',
  error: 'x_write_unconfirmed',
  message: 'Sent to the platform; waiting for confirmation.',
  sendDispatched: true,
  sendDispatchedAt: '2026-05-01T10:00:01Z',
  createdAt: '2026-05-01T10:00:00Z',
  updatedAt: '2026-05-01T10:00:01Z',
  expiresAt: '2026-05-01T10:15:00Z',
  confirmationAttempts: 1,
  confirmationCheckedAt: '2026-05-01T10:00:02Z',
  success: false,
};

const done: WriteAction = {
  object: 'x_write_action',
  id: 'wa_01HZX4AA00',
  writeActionId: 'wa_01HZX4AA00',
  action: 'like',
  status: 'success',
  terminal: true,
  retryable: false,
  safeToRetry: false,
  statusUrl: 'https://api.example.com/api/v1/x/write-actions/wa_01HZX4AA00',
  pollAfterMs: null,
  charged: true,
  chargedCredits: '1',
  billing: { status: 'charged', charged: true, chargedCredits: '1', plannedCredits: '1' },
  request: { hash: 'b'.repeat(64), payload: null },
  account: { id: '1843', username: 'myhandle' },
  target: { type: 'tweet', id: '1790000000000000000' },
  targetId: '1790000000000000000',
  result: { type: 'state_change', state: 'liked' },
  nextAction: null,
  idempotent: false,
  sendDispatched: true,
  createdAt: '2026-05-01T10:00:00Z',
  completedAt: '2026-05-01T10:00:03Z',
  confirmedAt: '2026-05-01T10:00:03Z',
  details: { platformStatus: 200 },
  success: true,
};

describe('X Write operations', () => {
  it('has the 18 writes and the status poll, each write with its write action', () => {
    expect(writes).toHaveLength(18);
    expect(writes.map((op) => op.writeAction).sort()).toEqual([...WRITE_ACTIONS].sort());
  });

  it.each(writes.map((op) => [op.id, op] as const))(
    '%s is a durable write with a required account',
    (_, op) => {
      expect(op.writeAction).toBeTruthy();
      expect(op.success).toEqual([200, 202]);
      expect(op.response).toBe(WriteActionSchema);
      expect(op.tag).toBe('X Write');
      expect(op.body).not.toBeNull();
      const shape = (op.body as z.ZodObject).shape;
      expect(shape.account).toBeDefined();
      expect(shape.account!.safeParse(undefined).success).toBe(false);
      expect(op.errors).toEqual(expect.arrayContaining(['idempotency_conflict', 'missing_idempotency_key']));
      for (const name of (op.path.match(/\{(\w+)\}/g) ?? []).map((p) => p.slice(1, -1))) {
        expect(op.params?.shape[name]).toBeDefined();
      }
    },
  );

  it.each(writes.map((op) => [op.id, op] as const))(
    '%s accepts a valid request and rejects a bad one',
    (id, op) => {
      const c = writeCases[id];
      expect(c).toBeDefined();
      ok(op.body, c!.body);
      bad(op.body, c!.badBody);
      if (op.params) {
        ok(op.params, c!.params);
        bad(op.params, c!.badParams);
      }
    },
  );

  it('strips the @ of the account', () => {
    expect(ok(createTweet.body, { account: ' @myhandle ', text: 'x' })).toMatchObject({
      account: 'myhandle',
    });
  });

  it('createTweet needs text or media, bounds text to 25,000 characters and media to 1-4 URLs', () => {
    const body = createTweet.body;
    bad(body, { account: 'me' });
    ok(body, { account: 'me', media: ['https://example.com/a.png'] });
    ok(body, { account: 'me', text: 'x'.repeat(25_000), is_note_tweet: true });
    bad(body, { account: 'me', text: 'x'.repeat(25_001), is_note_tweet: true });
    bad(body, { account: 'me', media: [] });
    bad(body, { account: 'me', media: Array.from({ length: 5 }, (_, i) => `https://example.com/${i}.png`) });
    ok(body, { account: 'me', text: 'reply', reply_to_tweet_id: '1790000000000000000', community_id: '16' });
    const issues = body!.safeParse({ account: 'me' }).error?.issues ?? [];
    expect(issues.map((i) => i.message)).toContain('text or media is required');
  });

  it('costs: delete tweet 10 credits per call, the status poll is free', () => {
    const byId: Record<string, AnyOperation> = Object.fromEntries(xWriteOperations.map((op) => [op.id, op]));
    expect(byId.deleteTweet!.cost).toEqual({ kind: 'per_call', credits: 10 });
    expect(getWriteActionStatus.cost).toEqual({ kind: 'free' });
    expect(getWriteActionStatus.success).toEqual([200, 202]);
    expect(getWriteActionStatus.method).toBe('GET');
    expect(byId.uploadMedia!.bodyEncoding).toBe('multipart');
    expect(byId.followUser!.description).toMatch(/20 per minute and 400 per day/);
    expect(byId.removeFollower!.description).toMatch(/20 per minute and 400 per day/);
  });

  it('uploadMedia accepts the six media types only', () => {
    const body = xWriteOperations.find((op) => op.id === 'uploadMedia')!.body;
    for (const type of ['image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp', 'video/mp4']) {
      ok(body, { account: 'me', file: new File(['x'], 'f', { type }) });
    }
    bad(body, { account: 'me', file: new File(['x'], 'f.pdf', { type: 'application/pdf' }) });
    ok(body, { account: 'me', url: 'https://example.com/clip.mp4' });
  });

  it('sdk paths are unique', () => {
    const all = [...xWriteOperations, ...xAccountsOperations].map((op) => op.sdk.join('.'));
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('WriteActionSchema', () => {
  it('a 202 pending action and a 200 terminal one pass the strict server check', () => {
    for (const op of xWriteOperations) {
      ok(strictify(op.response), pending);
      ok(strictify(op.response), done);
    }
    expect(WRITE_ACTION_TERMINAL_STATUSES).toEqual(['success', 'failed', 'expired']);
  });

  it('the strict check rejects unknown fields and values; the loose read accepts them', () => {
    bad(strictify(WriteActionSchema), { ...pending, surprise: 1 });
    bad(strictify(WriteActionSchema), { ...pending, status: 'queued' });
    bad(strictify(WriteActionSchema), { ...pending, request: { hash: 'not-a-hash', payload: null } });
    // The reference's nextAction enum has no `none`: a finished write has a null nextAction.
    bad(strictify(WriteActionSchema), { ...done, nextAction: { type: 'none' } });
    bad(strictify(WriteActionSchema), { ...pending, billing: { status: 'pending', credits: '1' } });
    bad(strictify(WriteActionSchema), { ...pending, account: { id: '1843', xUsername: 'myhandle' } });
    ok(loosen(WriteActionSchema), {
      ...pending,
      status: 'queued',
      nextAction: { type: 'wait', extra: true },
    });
  });

  it('the error body carries the action fields', () => {
    ok(strictify(WriteActionErrorSchema), {
      error: 'idempotency_conflict',
      message: 'This Idempotency-Key was used with a different request.',
      writeActionId: 'wa_01HZX3K7Q2',
      requestHash: 'a'.repeat(64),
      safeToRetry: false,
      nextAction: { type: 'fix_request' },
    });
    bad(WriteActionErrorSchema, { message: 'no code' });
  });
});

describe('X Accounts operations', () => {
  const account = {
    id: '1843',
    xUserId: '44196397',
    xUsername: 'myhandle',
    status: 'active',
    health: 'healthy',
    createdAt: '2026-04-01T09:00:00Z',
  };
  const challenge = {
    object: 'x_account_connection_challenge',
    id: 'xch_7Hq2LmP9',
    status: 'requires_email_code',
    expiresAt: '2026-05-01T10:10:00Z',
    message: 'Enter the code the platform e-mailed to m***@example.com.',
    username: 'myhandle',
  };

  it('are all free with the agreed sdk paths', () => {
    expect(xAccountsOperations.map((op) => op.sdk[1])).toEqual([
      'list',
      'connect',
      'attempt',
      'submitChallenge',
      'get',
      'disconnect',
      'reauth',
      'bulkRetry',
    ]);
    for (const op of xAccountsOperations) {
      expect(op.cost).toEqual({ kind: 'free' });
      expect(op.sdk[0]).toBe('xAccounts');
    }
  });

  it('connectXAccount answers 201 with an account or 202 with a challenge or pending attempt', () => {
    expect(connectXAccount.success).toEqual([201, 202]);
    const strict = strictify(connectXAccount.response);
    ok(strict, account);
    ok(strict, challenge);
    ok(strict, {
      object: 'x_account_connection_attempt',
      id: `xatt_${'0'.repeat(32)}`,
      status: 'pending',
      pollAfterMs: 1500,
    });
    bad(strict, { ...challenge, status: 'completed' });
    bad(strict, { ...account, health: 'sick' });
    ok(XAccountSchema, {
      ...account,
      updatedAt: '2026-04-02T09:00:00Z',
      cookiesObtainedAt: '2026-04-02T09:00:00Z',
    });
    expect(connectXAccount.errors).toEqual(
      expect.arrayContaining(['login_cooldown', 'account_already_connected']),
    );
    expect(connectXAccount.description).toMatch(/Retry-After 900/);
  });

  it('connectXAccount validates its body', () => {
    const body = connectXAccount.body;
    const valid = {
      username: '@myhandle',
      email: 'me@example.com',
      password: 'pw',
      totp_secret: 'JBSWY3DPEHPK3PXP',
    };
    expect(ok(body, valid)).toMatchObject({ username: 'myhandle' });
    bad(body, { ...valid, email: 'not-an-email' });
    bad(body, { ...valid, username: 'this_name_is_too_long' });
    bad(body, { username: 'me', email: 'me@example.com' });
  });

  it('submitXAccountConnectionChallenge strips spaces from email_code and bounds it to 4-64', () => {
    const body = submitXAccountConnectionChallenge.body;
    expect(ok(body, { email_code: ' 48 29 13 ' })).toEqual({ email_code: '482913' });
    ok(body, { email_code: '1234' });
    ok(body, { email_code: 'a'.repeat(64) });
    ok(body, { email_code: `${'a'.repeat(64)}   ` });
    bad(body, { email_code: '1 2 3' });
    bad(body, { email_code: 'a'.repeat(65) });
    bad(body, {});
    ok(submitXAccountConnectionChallenge.params, { id: 'xch_7Hq2LmP9' });
    bad(submitXAccountConnectionChallenge.params, { id: '7Hq2LmP9' });
    expect(submitXAccountConnectionChallenge.success).toEqual([201, 202]);
    ok(strictify(submitXAccountConnectionChallenge.response), account);
    ok(strictify(submitXAccountConnectionChallenge.response), challenge);
    expect(submitXAccountConnectionChallenge.errors).toEqual(
      expect.arrayContaining([
        'connection_challenge_not_found',
        'connection_challenge_inactive',
        'connection_challenge_expired',
        'login_failed',
        'service_unavailable',
      ]),
    );
  });

  it('the other operations take and answer what the reference says', () => {
    ok(strictify(listXAccounts.response), { accounts: [account] });
    ok(getXAccountConnectionAttempt.params, { id: `xatt_${'ab'.repeat(16)}` });
    bad(getXAccountConnectionAttempt.params, { id: 'xatt_123' });
    const attempt = strictify(getXAccountConnectionAttempt.response);
    ok(attempt, {
      object: 'x_account_connection_attempt',
      id: `xatt_${'1'.repeat(32)}`,
      status: 'connected',
    });
    ok(attempt, {
      object: 'x_account_connection_attempt',
      id: `xatt_${'1'.repeat(32)}`,
      status: 'failed',
      error: 'login_failed',
      retryable: true,
    });
    ok(attempt, challenge);
    ok(ConnectionAttemptSchema, challenge);
    ok(ConnectionChallengeSchema, challenge);
    ok(strictify(getXAccount.response), account);
    ok(strictify(disconnectXAccount.response), { success: true });
    expect(disconnectXAccount.method).toBe('DELETE');
    ok(reauthXAccount.body, { password: 'pw', email: 'me@example.com' });
    bad(reauthXAccount.body, { email: 'me@example.com' });
    ok(strictify(reauthXAccount.response), challenge);
    expect(reauthXAccount.errors).toContain('login_cooldown');
    ok(strictify(bulkRetryXAccounts.response), { cleared: 3 });
    bad(strictify(bulkRetryXAccounts.response), { cleared: -1 });
  });
});
