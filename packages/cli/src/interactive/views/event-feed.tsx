import { Box, Text } from 'ink';
import type { EventSummary } from '../shared/event-summary.js';
import { dim, paint } from './paint.js';

/** Props of {@link EventFeed}. */
export interface EventFeedProps {
  /** Newest first, already cut to what fits. */
  readonly events: readonly EventSummary[];
  /** Events received since the start. */
  readonly count: number;
  /** What is being watched: `all monitors`, `monitor 123`… */
  readonly scope: string;
  /** A transient note: waiting for the start position, rate limited, service unavailable. */
  readonly note?: string | undefined;
  readonly color: boolean;
}

/** `12:01:02` (UTC) from an ISO timestamp; the timestamp itself when it does not parse. */
export function clockTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().slice(11, 19);
}

/** The live view of `xsvc monitors watch`: a header with the count, then the newest events, one per line. */
export function EventFeed({ events, count, scope, note, color }: EventFeedProps) {
  return (
    <Box flexDirection="column">
      <Text>
        <Text {...paint(color, 'green')}>●</Text> Watching {scope} · {count} event{count === 1 ? '' : 's'} ·
        Ctrl-C to stop
      </Text>
      {note ? <Text {...paint(color, 'yellow')}>{note}</Text> : null}
      {events.length === 0 ? <Text {...dim(color)}>No new events yet.</Text> : null}
      {events.map((e) => (
        <Box key={e.id}>
          <Box width={10} flexShrink={0}>
            <Text {...dim(color)}>{clockTime(e.occurredAt)}</Text>
          </Box>
          <Box width={30} flexShrink={0}>
            <Text {...paint(color, 'cyan')}>{e.type}</Text>
          </Box>
          <Box width={18} flexShrink={0}>
            <Text wrap="truncate">{e.who}</Text>
          </Box>
          <Text wrap="truncate">{e.text}</Text>
        </Box>
      ))}
    </Box>
  );
}
