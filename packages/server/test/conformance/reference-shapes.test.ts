/**
 * The answers of item 3 of the interop issue checked against schemas written by hand from
 * `reference-shapes.md` (the service's official SDK types; `../helpers/reference-shapes.ts`), not from our
 * contract: composition steps, radar, styles, draw detail, support tickets, DM history, guest wallets and
 * connected accounts. A drift between the contract and the shapes file fails here.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectReferenceShape, type referenceShapes } from '../helpers/reference-shapes.js';
import { connectBody } from '../x-accounts/helpers.js';
import { type Listening, listen } from './listening.js';

let at: Listening;

beforeAll(async () => {
  at = await listen(`svc_${'3e'.repeat(32)}`);
});
afterAll(async () => at?.close());

/** An answer, its JSON body walked by the assertions. */
// biome-ignore lint/suspicious/noExplicitAny: answers are walked by the assertions
type Reply = { status: number; body: any };

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const r = await fetch(`${at.base}/api/v1${path}`, {
    method,
    headers: {
      'x-api-key': at.key,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

async function shaped(
  name: keyof typeof referenceShapes,
  status: number,
  r: { status: number; body: unknown },
) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expectReferenceShape(name, r.body);
  return r.body;
}

describe('answers shaped as reference-shapes.md declares', () => {
  it('composition: the compose step', async () => {
    await shaped(
      'ComposePrepareResult',
      200,
      await call('POST', '/compose', { step: 'compose', topic: 'shipping a CLI' }),
    );
  });

  it('radar items', async () => {
    await shaped('RadarPage', 200, await call('GET', '/radar?limit=3'));
  });

  it('composition: the refine and score steps and styles', async () => {
    await shaped(
      'ComposeRefineResult',
      200,
      await call('POST', '/compose', { step: 'refine', topic: 'CLI', goal: 'engagement', tone: 'casual' }),
    );
    await shaped(
      'ComposeScoreResult',
      200,
      await call('POST', '/compose', { step: 'score', draft: 'We shipped it. What would you add?' }),
    );
    await shaped('StyleProfile', 201, await call('POST', '/styles', { username: 'jack' }));
    await shaped('StyleProfile', 200, await call('GET', '/styles/jack'));
    await shaped('StyleList', 200, await call('GET', '/styles'));
  });

  it('draw detail', async () => {
    const draw = await call('POST', '/draws', {
      tweetUrl: 'https://x.com/jack/status/20',
      winnerCount: 1,
      backupCount: 1,
    });
    expect(draw.status, JSON.stringify(draw.body)).toBe(201);
    await shaped('DrawDetailResponse', 200, await call('GET', `/draws/${draw.body.id}`));
  });

  it('support tickets: create receipt, list and detail', async () => {
    const made = (await shaped(
      'SupportAttachmentReceipt',
      201,
      await call('POST', '/support/tickets', { subject: 'Help', body: 'It does not work.' }),
    )) as { publicId: string };
    await shaped(
      'SupportAttachmentReceipt',
      201,
      await call('POST', `/support/tickets/${made.publicId}/messages`, { body: 'More detail.' }),
    );
    await shaped('TicketList', 200, await call('GET', '/support/tickets'));
    await shaped('TicketDetail', 200, await call('GET', `/support/tickets/${made.publicId}`));
  });

  it('connected accounts', async () => {
    const account = (await shaped(
      'SanitizedXAccount',
      201,
      await call('POST', '/x/accounts', connectBody('xsvc_demo')),
    )) as { id: string };
    await shaped('XAccountList', 200, await call('GET', '/x/accounts'));
    await shaped('XAccountDetail', 200, await call('GET', `/x/accounts/${account.id}`));
  });

  it('DM history', async () => {
    const account = (await call('GET', '/x/accounts')).body.accounts[0] as { id: string };
    const dm = await call(
      'POST',
      '/x/dm/12',
      { account: account.id, text: 'hello' },
      { 'idempotency-key': randomUUID() },
    );
    expect(dm.status, JSON.stringify(dm.body)).toBeLessThan(300);
    await shaped('DmHistory', 200, await call('GET', `/x/dm/12/history?account=${account.id}`));
  });

  it('guest wallets: create, top-up and status', async () => {
    const created = (await shaped(
      'GuestWalletCreate',
      201,
      await call(
        'POST',
        '/guest-wallets',
        { amount_minor: 1000, currency: 'usd' },
        { 'x-api-key': '', 'idempotency-key': randomUUID() },
      ),
    )) as { api_key: string };
    const guest = { 'x-api-key': '', authorization: `Bearer ${created.api_key}` };
    await shaped('GuestWalletStatus', 200, await call('GET', '/guest-wallets/status', undefined, guest));
    await shaped(
      'GuestWalletTopUp',
      201,
      await call(
        'POST',
        '/guest-wallets/topups',
        { amount_minor: 1000, currency: 'usd' },
        { ...guest, 'idempotency-key': randomUUID() },
      ),
    );
  });
});
