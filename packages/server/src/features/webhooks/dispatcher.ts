import { BoundedCache } from '../../core/bounded-cache.js';
import type { Clock } from '../../core/clock.js';
import {
  type Resolver,
  resolveTarget,
  type Target,
  type TargetPolicy,
  targetWithoutDns,
  type VettedUrl,
  vetWebhookUrl,
} from '../../core/ssrf/target.js';
import { signRequest } from './signed-request.js';
import { type Agents, type SendLimits, type SendOutcome, sendToTarget } from './transport.js';

/** What a dispatcher needs: the guard's policy and resolver, the clock for signatures, the limits, the pools. */
export interface DispatcherDeps {
  readonly policy: TargetPolicy;
  readonly resolver: Resolver;
  readonly clock: Clock;
  readonly limits: SendLimits;
  readonly agents: Agents;
}

/** Sends one signed POST to a webhook URL, guarded; used for deliveries and for tests alike. */
export interface Dispatcher {
  /**
   * Checks the URL and EVERY address it resolves to now (each attempt resolves anew), signs the body with
   * the secret at the current clock time, and POSTs it to the vetted address. Never throws: a refused
   * target is a failed attempt like any other.
   */
  send(url: string, secret: string, body: string, signal?: AbortSignal): Promise<SendOutcome>;
}

/** A dispatcher over the given guard, clock and pools. */
export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const post = (ready: PreparedSend | { readonly outcome: SendOutcome }, signal?: AbortSignal) =>
    'outcome' in ready
      ? ready.outcome
      : sendToTarget(ready.target, ready.body, ready.headers, ready.limits, deps.agents, signal);
  return {
    send(url, secret, body, signal) {
      // A target that needs no DNS is prepared at once, with no promise of its own.
      try {
        const now = prepareKnownSend(deps, url, secret, body);
        if (now === undefined)
          return prepareResolvedSend(deps, url, secret, body).then((ready) => post(ready, signal));
        return Promise.resolve(post(now, signal));
      } catch (err) {
        return Promise.reject(err);
      }
    },
  };
}

/** A POST ready to go: the vetted target, the signed body and headers, and the time left for it. */
export interface PreparedSend {
  readonly target: Target;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly limits: SendLimits;
}

/**
 * What every dispatcher does before the POST, on the server's thread: checks the URL and every address it
 * resolves to now, signs the body at the clock's current time, and counts the time DNS took against the
 * attempt's limit. A refused target is an outcome (a failed attempt), not an error.
 */
export async function prepareSend(
  deps: Pick<DispatcherDeps, 'policy' | 'resolver' | 'clock' | 'limits'>,
  url: string,
  secret: string,
  body: string,
): Promise<PreparedSend | { readonly outcome: SendOutcome }> {
  return prepareKnownSend(deps, url, secret, body) ?? prepareResolvedSend(deps, url, secret, body);
}

/** {@link prepareSend} for a host name, which asks DNS (an address, or the allowed loopback, needs none). */
async function prepareResolvedSend(
  deps: Pick<DispatcherDeps, 'policy' | 'resolver' | 'clock' | 'limits'>,
  url: string,
  secret: string,
  body: string,
): Promise<PreparedSend | { readonly outcome: SendOutcome }> {
  const started = performance.now();
  let target: Target;
  try {
    target = await withTimeout(
      resolveTarget(vetOnce(url, deps.policy), deps.resolver),
      deps.limits.timeoutMs,
    );
  } catch (err) {
    return refused(err);
  }
  const signed = signRequest(body, secret, deps.clock.now());
  const left = Math.max(1, deps.limits.timeoutMs - Math.round(performance.now() - started));
  return { target, body: signed.body, headers: signed.headers, limits: { ...deps.limits, timeoutMs: left } };
}

/**
 * {@link prepareSend} at once when the URL needs no DNS (an address, or the allowed loopback) or is refused
 * by the checks that need none; undefined for a host name to resolve. The whole limit is left for the POST.
 */
export function prepareKnownSend(
  deps: Pick<DispatcherDeps, 'policy' | 'clock' | 'limits'>,
  url: string,
  secret: string,
  body: string,
): PreparedSend | { readonly outcome: SendOutcome } | undefined {
  let target: Target | undefined;
  try {
    target = targetWithoutDns(vetOnce(url, deps.policy));
  } catch (err) {
    return refused(err);
  }
  if (!target) return undefined;
  const signed = signRequest(body, secret, deps.clock.now());
  return { target, body: signed.body, headers: signed.headers, limits: deps.limits };
}

function refused(err: unknown): { readonly outcome: SendOutcome } {
  return { outcome: { ok: false, statusCode: null, error: `refused: ${(err as Error).message}` } };
}

/** URLs already vetted, per policy: the checks that need no DNS give the same answer every time. */
const vettedUrls = new BoundedCache<TargetPolicy, VettedUrl>(1_000);

/** {@link vetWebhookUrl}, remembered per policy for the last 1,000 URLs (a refusal is not: it throws). */
function vetOnce(url: string, policy: TargetPolicy): VettedUrl {
  return vettedUrls.get(policy, url, () => vetWebhookUrl(url, policy));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`DNS resolution took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
