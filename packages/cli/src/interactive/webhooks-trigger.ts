import { ExitCode } from '../exit-codes.js';
import { readChoice, readString } from './shared/options.js';
import { envOf, outputMode, writeJson, writeLine, writeNote } from './shared/output.js';
import { type Clock, realClock } from './shared/timing.js';
import { UsageError, withUsageErrors } from './shared/usage-error.js';
import type { InteractiveCommand, InteractiveContext, RawOptions } from './types.js';
import { newDeliveryId, signDelivery } from './webhooks/delivery.js';
import { forwardDelivery, outcomeText } from './webhooks/forward.js';
import { samplePayload, snowflakeIds, TRIGGER_TYPES, type TriggerType } from './webhooks/samples.js';
import { resolveSecret } from './webhooks/secret.js';
import { parseForwardUrl } from './webhooks/target-url.js';

/** Options of `xsvc webhooks trigger`. */
export interface TriggerOptions {
  readonly eventType: TriggerType;
  /** Where to POST the delivery; without it the signed delivery is printed. */
  readonly forwardTo?: string | undefined;
  readonly secret: string;
  readonly secretGenerated: boolean;
}

/** What triggering needs from outside. */
export interface TriggerDeps {
  readonly clock: Clock;
  /** Epoch ms: the event time and `X-Svc-Timestamp`. */
  readonly now: () => number;
  readonly newId: () => string;
  readonly fetch?: typeof fetch;
}

/** Reads the raw options of `xsvc webhooks trigger <event-type>`. */
export function parseTriggerOptions(
  raw: RawOptions,
  env: Readonly<Record<string, string | undefined>>,
): TriggerOptions {
  const eventType = readChoice(raw, 'eventType', TRIGGER_TYPES, '<event-type>');
  if (eventType === undefined) {
    throw new UsageError(
      `<event-type> is required: one of ${TRIGGER_TYPES.join(', ')}`,
      '<event-type>',
      'missing_params',
    );
  }
  const forward = readString(raw, 'forwardTo', '--forward-to');
  const { secret, generated } = resolveSecret(readString(raw, 'secret', '--secret'), env);
  return {
    eventType,
    forwardTo: forward === undefined ? undefined : parseForwardUrl(forward),
    secret,
    secretGenerated: generated,
  };
}

/**
 * `xsvc webhooks trigger <event-type>`: builds a realistic sample delivery of that type (any of the 21 event
 * types or `webhook.test`), signs it like the service, and POSTs it to `--forward-to`, printing the answer's
 * status and latency (exit 1 when the receiver does not answer 2xx). Without `--forward-to` it prints the
 * signed delivery (headers and body) instead.
 */
export async function trigger(
  ctx: InteractiveContext,
  options: TriggerOptions,
  deps: TriggerDeps,
): Promise<number> {
  const mode = outputMode(ctx);
  const now = deps.now();
  const payload = samplePayload(options.eventType, {
    now,
    deliveryId: deps.newId(),
    nextId: snowflakeIds(now),
  });
  const signed = await signDelivery(payload, options.secret, now);
  if (options.secretGenerated)
    writeNote(ctx, `Signing secret (generated; pass --secret to reuse one): ${options.secret}`);
  if (options.forwardTo === undefined) {
    if (mode === 'json') writeJson(ctx, { headers: signed.headers, body: payload });
    else {
      for (const [name, value] of Object.entries(signed.headers)) writeLine(ctx, `${name}: ${value}`);
      writeLine(ctx, '');
      writeLine(ctx, signed.body);
    }
    return ExitCode.ok;
  }
  const result = await forwardDelivery(options.forwardTo, signed, {
    clock: deps.clock,
    signal: ctx.signal,
    ...(deps.fetch && { fetch: deps.fetch }),
  });
  const deliveryId = 'deliveryId' in payload ? payload.deliveryId : undefined;
  if (mode === 'json')
    writeJson(ctx, { eventType: options.eventType, deliveryId, forwardTo: options.forwardTo, ...result });
  else writeLine(ctx, `${options.eventType} → ${options.forwardTo}: ${outcomeText(result)}`);
  return result.ok ? ExitCode.ok : ExitCode.error;
}

/** The runner the command layer loads. */
export const run: InteractiveCommand<RawOptions> = (ctx, raw) =>
  withUsageErrors(ctx, () =>
    trigger(ctx, parseTriggerOptions(raw, envOf(ctx)), {
      clock: realClock,
      now: Date.now,
      newId: newDeliveryId,
    }),
  );
