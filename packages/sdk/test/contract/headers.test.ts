/**
 * Request headers are data on the operations (`headers`), read by the SDK, the server, the OpenAPI
 * document, the CLI, MCP and the reference. The operations that take an `Idempotency-Key` are exactly those
 * that did when a regex over the descriptions decided it (the durable writes, the guest-wallet checkouts and
 * the support messages).
 */
import { describe, expect, it } from 'vitest';
import { routes } from '../../src/client/routes.generated.js';
import { takesIdempotencyKey } from '../../src/contract/headers.js';
import { operations } from '../../src/contract/operations/index.js';

const TAKING_A_KEY = [
  'addTicketMessage',
  'createCommunity',
  'createGuestWallet',
  'createTicket',
  'createTweet',
  'deleteCommunity',
  'deleteTweet',
  'followUser',
  'joinCommunity',
  'leaveCommunity',
  'likeTweet',
  'removeFollower',
  'retweet',
  'sendDm',
  'topUpGuestWallet',
  'unfollowUser',
  'unlikeTweet',
  'unretweet',
  'updateAvatar',
  'updateBanner',
  'updateProfile',
  'uploadMedia',
];

describe('request headers', () => {
  it('declare an Idempotency-Key on the operations that took one before', () => {
    expect(
      operations
        .filter(takesIdempotencyKey)
        .map((o) => o.id)
        .sort(),
    ).toEqual(TAKING_A_KEY);
  });

  it('every durable write takes a required key', () => {
    for (const op of operations.filter((o) => o.writeAction))
      expect(op.headers?.['Idempotency-Key']?.required, op.id).toBe(true);
  });

  it('the SDK sends a key exactly where the contract declares one', () => {
    const sending = Object.values(routes)
      .filter((r) => r.idempotencyKey)
      .map((r) => r.id)
      .sort();
    expect(sending).toEqual(TAKING_A_KEY);
  });

  it('each header schema accepts a valid key and refuses a malformed one', () => {
    const byId = Object.fromEntries(operations.map((o) => [o.id, o]));
    const schema = (id: string) => byId[id]!.headers!['Idempotency-Key']!.schema;
    expect(schema('createTweet').safeParse('retry-me-1').success).toBe(true);
    expect(schema('createTweet').safeParse('é').success).toBe(false);
    expect(schema('createTweet').safeParse('x'.repeat(256)).success).toBe(false);
    expect(schema('createGuestWallet').safeParse('00000000-0000-4000-8000-000000000001').success).toBe(true);
    expect(schema('createGuestWallet').safeParse('not-a-uuid').success).toBe(false);
    expect(schema('createTicket').safeParse('ticket-key-1').success).toBe(true);
    expect(schema('createTicket').safeParse('short').success).toBe(false);
  });
});
