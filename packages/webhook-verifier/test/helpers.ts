import * as web from '../src/index.js';
import * as node from '../src/node.js';

/** Both builds under one name, so every behaviour test runs against each and can compare them. */
export const builds = [
  { name: 'web', verifyWebhook: web.verifyWebhook, signWebhook: web.signWebhook },
  { name: 'node', verifyWebhook: node.verifyWebhook, signWebhook: node.signWebhook },
] as const;

export const SECRET = 'whsec_test_secret_0123456789abcdef';
export const NOW = 1_777_464_000_000;
export const NONCE = '0123456789abcdef0123456789abcdef';
export const BODY = JSON.stringify({
  eventType: 'tweet.new',
  schemaVersion: 1,
  deliveryId: 'dlv_1',
  streamEventId: 'evt_1',
  occurredAt: '2026-04-29T12:00:00.000Z',
  username: 'xsvc',
  data: { id: '1', text: 'hello 🎉' },
});

/** Signs with the Node build (checked against OpenSSL vectors elsewhere) at a fixed time and nonce. */
export function signed(
  overrides: { body?: string; timestamp?: number; nonce?: string; secret?: string } = {},
): { body: string; headers: Record<string, string> } {
  const body = overrides.body ?? BODY;
  const headers = node.signWebhookSync({
    secret: overrides.secret ?? SECRET,
    payload: body,
    timestamp: overrides.timestamp ?? NOW,
    nonce: overrides.nonce ?? NONCE,
  });
  return { body, headers: { ...headers } };
}

/** The reason of a rejected verification, `'ok'` when it passed, or the class name of another error. */
export async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'ok';
  } catch (error) {
    if (web.isWebhookVerificationError(error)) return error.reason;
    return error instanceof Error ? error.name : String(error);
  }
}
