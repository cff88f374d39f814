import { Box, Text } from 'ink';
import { outcomeText } from '../webhooks/forward.js';
import { clockTime } from './event-feed.js';
import { dim, paint } from './paint.js';

/** One forwarded delivery as the log shows it. */
export interface ForwardLine {
  readonly deliveryId: string;
  readonly eventType: string;
  readonly occurredAt: string;
  readonly status?: number | undefined;
  readonly ok: boolean;
  readonly latencyMs: number;
  readonly error?: string | undefined;
}

/** Props of {@link ForwardLog}. */
export interface ForwardLogProps {
  readonly forwardTo: string;
  /** Shown so the receiver can be configured with it. */
  readonly secret: string;
  /** Newest first. */
  readonly lines: readonly ForwardLine[];
  readonly delivered: number;
  readonly failed: number;
  readonly note?: string | undefined;
  readonly color: boolean;
}

/** The live view of `xsvc webhooks listen`: where deliveries go, the secret, and each answer. */
export function ForwardLog({ forwardTo, secret, lines, delivered, failed, note, color }: ForwardLogProps) {
  return (
    <Box flexDirection="column">
      <Text>
        <Text {...paint(color, 'green')}>●</Text> Forwarding events to {forwardTo} · Ctrl-C to stop
      </Text>
      <Text>
        {'  '}Signing secret: <Text bold>{secret}</Text>
      </Text>
      <Text>{`  ${delivered} delivered · ${failed} failed`}</Text>
      {note ? <Text {...paint(color, 'yellow')}>{`  ${note}`}</Text> : null}
      {lines.length === 0 ? <Text {...dim(color)}>{'  Waiting for events…'}</Text> : null}
      {lines.map((l) => (
        <Box key={l.deliveryId}>
          <Box width={12} flexShrink={0}>
            <Text {...dim(color)}>{`  ${clockTime(l.occurredAt)}`}</Text>
          </Box>
          <Box width={30} flexShrink={0}>
            <Text>{l.eventType}</Text>
          </Box>
          <Text {...paint(color, l.ok ? 'green' : 'red')}>{`→ ${outcomeText(l)}`}</Text>
        </Box>
      ))}
    </Box>
  );
}
