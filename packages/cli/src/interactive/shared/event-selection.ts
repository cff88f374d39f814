import type { RawOptions } from '../types.js';
import { readString } from './options.js';
import { pollIntervalFromEnv } from './timing.js';

/**
 * Which stored events a live command follows (`--monitor`, `--keyword-monitor`, `--since`) and how often it
 * polls (`XSVC_POLL_INTERVAL_MS`): what `monitors watch` and `webhooks listen` share.
 */
export interface EventSelection {
  readonly monitorId?: string | undefined;
  readonly keywordMonitorId?: string | undefined;
  /** Start after this event id instead of after the newest event at start. */
  readonly since?: string | undefined;
  readonly pollIntervalMs: number;
}

/** Reads an {@link EventSelection} from a command's raw options and the environment. */
export function parseEventSelection(
  raw: RawOptions,
  env: Readonly<Record<string, string | undefined>>,
): EventSelection {
  return {
    monitorId: readString(raw, 'monitor', '--monitor'),
    keywordMonitorId: readString(raw, 'keywordMonitor', '--keyword-monitor'),
    since: readString(raw, 'since', '--since'),
    pollIntervalMs: pollIntervalFromEnv(env),
  };
}

/** The selection's own fields, whatever else `options` holds (for `followEvents`). */
export function selectionOf(options: EventSelection): EventSelection {
  const { monitorId, keywordMonitorId, since, pollIntervalMs } = options;
  return { monitorId, keywordMonitorId, since, pollIntervalMs };
}
