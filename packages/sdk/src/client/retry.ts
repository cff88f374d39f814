/** Backoff and `Retry-After` arithmetic shared by the request core, the pager and the pollers. */

/** Exponential backoff with full jitter: base 500 ms, factor 2, capped at 8 s. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(8_000, 500 * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Milliseconds to wait according to the response: `Retry-After` (seconds or an HTTP date), then the body's
 * `retryAfterMs` or `retryAfter` (seconds). Undefined when the service said nothing.
 */
export function retryAfterMs(headers: Headers | undefined, body: unknown, now: number): number | undefined {
  const h = headers?.get('retry-after');
  if (h) {
    const s = Number(h);
    if (Number.isFinite(s) && s >= 0) return s * 1000;
    const d = Date.parse(h);
    if (!Number.isNaN(d)) return Math.max(0, d - now);
  }
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const inner = typeof b.error === 'object' && b.error !== null ? (b.error as Record<string, unknown>) : b;
    if (typeof inner.retryAfterMs === 'number') return inner.retryAfterMs;
    if (typeof inner.retry_after_ms === 'number') return inner.retry_after_ms;
    if (typeof b.retryAfterMs === 'number') return b.retryAfterMs;
    if (typeof inner.retryAfter === 'number') return inner.retryAfter * 1000;
    if (typeof inner.retry_after === 'number') return inner.retry_after * 1000;
    if (typeof b.retryAfter === 'number') return b.retryAfter * 1000;
  }
  return undefined;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
