import type { EventType } from '@xsvc/sdk/contract';
import type { Instance } from 'ink';
import { ExitCode } from '../exit-codes.js';
import { type EventSelection, parseEventSelection, selectionOf } from './shared/event-selection.js';
import { followEvents } from './shared/event-stream.js';
import { readList, readString, requireString } from './shared/options.js';
import { envOf, outputMode, writeJson, writeNote } from './shared/output.js';
import { closeView, mountView } from './shared/render.js';
import { type Clock, realClock, realSleep, type Sleep } from './shared/timing.js';
import { withUsageErrors } from './shared/usage-error.js';
import type { InteractiveCommand, InteractiveContext, RawOptions } from './types.js';
import { type ForwardLine, ForwardLog } from './views/forward-log.js';
import { newDeliveryId, payloadFromEvent, signDelivery } from './webhooks/delivery.js';
import { parseEventTypes } from './webhooks/event-types.js';
import { forwardDelivery } from './webhooks/forward.js';
import { resolveSecret } from './webhooks/secret.js';
import { parseForwardUrl } from './webhooks/target-url.js';

/** Options of `xsvc webhooks listen`. */
export interface ListenOptions extends EventSelection {
  readonly forwardTo: string;
  /** Only these types are forwarded; all when absent. */
  readonly events?: readonly string[] | undefined;
  readonly secret: string;
  /** True when the secret was generated here (and must be shown). */
  readonly secretGenerated: boolean;
}

/** What listening needs from outside; tests pass an instant sleep, a fixed clock and ids. */
export interface ListenDeps {
  readonly sleep: Sleep;
  /** Monotonic ms, for latencies. */
  readonly clock: Clock;
  /** Epoch ms, for `X-Svc-Timestamp`. */
  readonly now: () => number;
  /** A fresh `deliveryId`. */
  readonly newId: () => string;
  readonly fetch?: typeof fetch;
}

/** Reads the raw options of `xsvc webhooks listen`. */
export function parseListenOptions(
  raw: RawOptions,
  env: Readonly<Record<string, string | undefined>>,
): ListenOptions {
  const forwardTo = parseForwardUrl(requireString(raw, 'forwardTo', '--forward-to'));
  const { secret, generated } = resolveSecret(readString(raw, 'secret', '--secret'), env);
  return {
    forwardTo,
    events: parseEventTypes(readList(raw, 'events', '--events')),
    secret,
    secretGenerated: generated,
    ...parseEventSelection(raw, env),
  };
}

/**
 * `xsvc webhooks listen --forward-to <url>`: follows the stored events (polling as `monitors watch` does) and
 * forwards each one to a local endpoint as a signed delivery with the service's own headers and payload
 * (spec 6.3), signed with a local secret shown at start, like `stripe listen`. Each answer's status and
 * latency is shown (an ink log on a terminal, JSON Lines otherwise). Runs until the signal aborts.
 */
export async function listen(
  ctx: InteractiveContext,
  options: ListenOptions,
  deps: ListenDeps,
): Promise<number> {
  const mode = outputMode(ctx, true);
  const filter = options.events ? new Set(options.events) : undefined;
  let lines: ForwardLine[] = [];
  let delivered = 0;
  let failed = 0;
  let note: string | undefined = 'Finding the newest event…';
  const view = () => (
    <ForwardLog
      forwardTo={options.forwardTo}
      secret={options.secret}
      lines={lines}
      delivered={delivered}
      failed={failed}
      note={note}
      color={ctx.io.color}
    />
  );
  const instance: Instance | undefined = mode === 'view' ? mountView(ctx, view()) : undefined;
  if (mode !== 'view') {
    const secretNote = options.secretGenerated ? `; signing secret ${options.secret}` : '';
    writeNote(ctx, `Forwarding events to ${options.forwardTo}${secretNote} (Ctrl-C to stop)`);
  }
  try {
    const stream = followEvents(ctx.client, {
      ...selectionOf(options),
      eventType: options.events?.length === 1 ? (options.events[0] as EventType) : undefined,
      sleep: deps.sleep,
      signal: ctx.signal,
    });
    for await (const item of stream) {
      if (item.kind === 'wait')
        note = `${item.reason === 'rate_limited' ? 'Rate limited' : 'Service unavailable'}: retrying in ${Math.ceil(item.ms / 1000)}s`;
      if (item.kind === 'ready') note = undefined;
      if (item.kind === 'event' && (!filter || filter.has(item.event.type))) {
        note = undefined;
        const payload = payloadFromEvent(item.event, deps.newId());
        const signed = await signDelivery(payload, options.secret, deps.now());
        const result = await forwardDelivery(options.forwardTo, signed, {
          clock: deps.clock,
          signal: ctx.signal,
          ...(deps.fetch && { fetch: deps.fetch }),
        });
        if (ctx.signal.aborted) break;
        if (result.ok) delivered++;
        else failed++;
        const line: ForwardLine = {
          deliveryId: payload.deliveryId,
          eventType: payload.eventType,
          occurredAt: payload.occurredAt,
          ...result,
        };
        if (mode === 'view') lines = [line, ...lines].slice(0, 15);
        else writeJson(ctx, { ...line, streamEventId: payload.streamEventId });
      }
      instance?.rerender(view());
    }
  } finally {
    if (instance) await closeView(instance, view());
  }
  return ExitCode.ok;
}

/** The runner the command layer loads. */
export const run: InteractiveCommand<RawOptions> = (ctx, raw) =>
  withUsageErrors(ctx, () =>
    listen(ctx, parseListenOptions(raw, envOf(ctx)), {
      sleep: realSleep,
      clock: realClock,
      now: Date.now,
      newId: newDeliveryId,
    }),
  );
