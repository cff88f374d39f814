import type { DedupeStore } from './dedupe-store.js';
import { randomNonce } from './sign-core.js';
import type { WebhookEvent } from './types.js';

/** The outcome of {@link handleOnce}; answer `processed` and `duplicate` with 2xx, `in_progress` with 409. */
export type HandleOnceResult<T> =
  | { readonly status: 'processed'; readonly result: T }
  | { readonly status: 'duplicate' }
  | { readonly status: 'in_progress' };

/**
 * The de-duplication keys of an event: its `deliveryId` and `streamEventId`, prefixed so the two id spaces
 * cannot collide. Empty for `webhook.test`, which has neither and is never a duplicate.
 */
export function dedupeKeys(event: WebhookEvent): string[] {
  const keys: string[] = [];
  const { deliveryId, streamEventId } = event as { deliveryId?: unknown; streamEventId?: unknown };
  if (typeof deliveryId === 'string' && deliveryId !== '') keys.push(`delivery:${deliveryId}`);
  if (typeof streamEventId === 'string' && streamEventId !== '') keys.push(`event:${streamEventId}`);
  return keys;
}

/**
 * Runs `handler` at most once per event (spec 6.4 rule 4): an event whose `deliveryId` or `streamEventId`
 * was already processed is a `duplicate`. The ids are held while the handler runs, so a concurrent delivery
 * of the same ids gets `in_progress` instead of a second run; they are marked processed only after the
 * handler succeeds. If it throws, the hold is released and the error propagates, so the sender's retry is
 * processed. (If releasing fails too, the handler's error still wins and the hold lapses with its lease.)
 */
export async function handleOnce<E extends WebhookEvent, T>(
  event: E,
  store: DedupeStore,
  handler: (event: E) => T | Promise<T>,
): Promise<HandleOnceResult<T>> {
  const keys = dedupeKeys(event);
  if (keys.length === 0) return { status: 'processed', result: await handler(event) };
  const token = randomNonce();
  const reservation = await store.reserve(keys, token);
  if (reservation === 'duplicate' || reservation === 'in_progress') return { status: reservation };
  if (reservation !== 'reserved') {
    throw new TypeError(`DedupeStore.reserve must return 'reserved', 'duplicate' or 'in_progress'.`);
  }
  let result: T;
  try {
    result = await handler(event);
  } catch (error) {
    try {
      await store.release(keys, token);
    } catch {
      // The handler's error is the one the caller must see; the lease frees the ids.
    }
    throw error;
  }
  await store.complete(keys, token);
  return { status: 'processed', result };
}
