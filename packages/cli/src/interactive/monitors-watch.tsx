import type { Instance } from 'ink';
import { ExitCode } from '../exit-codes.js';
import { type EventSelection, parseEventSelection, selectionOf } from './shared/event-selection.js';
import { followEvents, type StreamItem } from './shared/event-stream.js';
import { type EventSummary, summarizeEvent } from './shared/event-summary.js';
import { envOf, outputMode, writeJson, writeNote } from './shared/output.js';
import { closeView, mountView } from './shared/render.js';
import { realSleep, type Sleep } from './shared/timing.js';
import { withUsageErrors } from './shared/usage-error.js';
import type { InteractiveCommand, InteractiveContext, RawOptions } from './types.js';
import { EventFeed } from './views/event-feed.js';

/** Options of `xsvc monitors watch`. */
export type WatchOptions = EventSelection;

/** What the watch needs from outside; tests pass a sleep that returns at once. */
export interface WatchDeps {
  readonly sleep: Sleep;
  /** Events kept on screen. */
  readonly rows?: number;
}

/** Reads the raw options of `xsvc monitors watch` (`--monitor`, `--keyword-monitor`, `--since`). */
export function parseWatchOptions(
  raw: RawOptions,
  env: Readonly<Record<string, string | undefined>>,
): WatchOptions {
  return parseEventSelection(raw, env);
}

function scopeOf(options: WatchOptions): string {
  const parts = [
    options.monitorId && `monitor ${options.monitorId}`,
    options.keywordMonitorId && `keyword monitor ${options.keywordMonitorId}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' and ') : 'all monitors';
}

function waitNote(item: Extract<StreamItem, { kind: 'wait' }>): string {
  const seconds = Math.max(1, Math.ceil(item.ms / 1000));
  return item.reason === 'rate_limited'
    ? `Rate limited: retrying in ${seconds}s`
    : `Service unavailable (${item.message}): retrying in ${seconds}s`;
}

/**
 * `xsvc monitors watch`: follows the stored events as they arrive. On a terminal an ink feed shows the
 * newest events and a count; with `--json` or piped, each event is one JSON line (the stored event as the
 * API returns it). Runs until the signal aborts, then resolves 0.
 */
export async function watchEvents(
  ctx: InteractiveContext,
  options: WatchOptions,
  deps: WatchDeps,
): Promise<number> {
  const mode = outputMode(ctx, true);
  const rows = deps.rows ?? 15;
  const scope = scopeOf(options);
  let recent: EventSummary[] = [];
  let count = 0;
  let note: string | undefined = 'Finding the newest event…';
  const view = () => (
    <EventFeed events={recent} count={count} scope={scope} note={note} color={ctx.io.color} />
  );
  const instance: Instance | undefined = mode === 'view' ? mountView(ctx, view()) : undefined;
  const noteOnStderr = (line: string) => {
    if (mode !== 'view' && ctx.io.stderr.isTTY) writeNote(ctx, line);
  };
  try {
    const stream = followEvents(ctx.client, {
      ...selectionOf(options),
      sleep: deps.sleep,
      signal: ctx.signal,
    });
    for await (const item of stream) {
      if (item.kind === 'event') {
        count++;
        note = undefined;
        if (mode === 'view') recent = [summarizeEvent(item.event), ...recent].slice(0, rows);
        else writeJson(ctx, item.event);
      } else if (item.kind === 'ready') {
        note = undefined;
        noteOnStderr(`Watching ${scope} for new events (Ctrl-C to stop)`);
      } else {
        note = waitNote(item);
        noteOnStderr(note);
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
  withUsageErrors(ctx, () => watchEvents(ctx, parseWatchOptions(raw, envOf(ctx)), { sleep: realSleep }));
