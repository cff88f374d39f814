import type { Output } from '@xsvc/sdk';
import { Box, Text } from 'ink';
import { formatCount } from './extraction-progress.js';
import { dim, paint } from './paint.js';

/** The answer of a draw run. */
export type DrawCreated = Output<'createDraw'>;

/** Props of {@link DrawResult}. */
export interface DrawResultProps {
  readonly tweetUrl: string;
  /** Undefined while the draw runs. */
  readonly draw?: DrawCreated | undefined;
  readonly exported?: { readonly path: string; readonly bytes: number } | undefined;
  readonly color: boolean;
}

/** `87 of 120 (73%)`: valid entries among the inspected ones. */
export function validShare(valid: number, total: number): string {
  const pct = total === 0 ? 0 : Math.round((valid / total) * 100);
  return `${formatCount(valid)} of ${formatCount(total)} (${pct}%)`;
}

/** The reply's URL; the author's name makes it a valid status link on the platform. */
export function replyUrl(author: string, tweetId: string): string {
  return `https://x.com/${author}/status/${tweetId}`;
}

/** The view of `xsvc draws run`: entries, valid entries, winners then backups with links to their replies. */
export function DrawResult({ tweetUrl, draw, exported, color }: DrawResultProps) {
  if (!draw) return <Text>Drawing winners from the replies of {tweetUrl}…</Text>;
  const winners = draw.winners.filter((w) => !w.isBackup);
  const backups = draw.winners.filter((w) => w.isBackup);
  const row = (w: DrawCreated['winners'][number]) => (
    <Box key={`${w.position}-${w.tweetId}`}>
      <Box width={6} flexShrink={0}>
        <Text>{`${w.position}.`.padStart(4)}</Text>
      </Box>
      <Box width={20} flexShrink={0}>
        <Text
          {...paint(color, w.isBackup ? 'yellow' : 'green')}
          wrap="truncate"
        >{`@${w.authorUsername}`}</Text>
      </Box>
      <Text {...dim(color)}>{replyUrl(w.authorUsername, w.tweetId)}</Text>
    </Box>
  );
  return (
    <Box flexDirection="column">
      <Text>
        <Text {...paint(color, 'green')}>✓</Text> Draw {draw.id} for {tweetUrl}
      </Text>
      <Text>{`  Entries inspected: ${formatCount(draw.totalEntries)}`}</Text>
      <Text>{`  Valid entries:     ${validShare(draw.validEntries, draw.totalEntries)}`}</Text>
      <Text bold>{`  Winners (${winners.length})`}</Text>
      {winners.length === 0 ? <Text>{'    no valid entry: nobody won'}</Text> : winners.map(row)}
      {backups.length > 0 ? <Text bold>{`  Backups (${backups.length})`}</Text> : null}
      {backups.map(row)}
      {exported ? <Text>{`  Saved ${formatCount(exported.bytes)} bytes to ${exported.path}`}</Text> : null}
    </Box>
  );
}
