import { num } from '../../core/db/database.js';
import { type ExportTable, plainTable } from '../../core/exports/table.js';
import type { DrawEntryRow, DrawRow } from './repository.js';

const iso = (ms: bigint | number) => new Date(Number(ms)).toISOString();

/** Link to a reply on the platform. */
const replyUrl = (e: DrawEntryRow) => `https://x.com/${e.author_username}/status/${e.tweet_id}`;

function meta(draw: DrawRow): [string, string][] {
  return [
    ['Draw', draw.id],
    ['Giveaway tweet', draw.tweet_url],
    ...(draw.tweet_author_username
      ? [['Posted by', `@${draw.tweet_author_username}`] as [string, string]]
      : []),
    ['Drawn at', iso(draw.drawn_at)],
    ['Entries inspected', String(num(draw.total_entries))],
    ['Valid entries', String(num(draw.valid_entries))],
  ];
}

/** The winners and backups of a draw as an export table. */
export function winnersTable(draw: DrawRow, winners: readonly DrawEntryRow[]): ExportTable {
  return plainTable({
    title: `Draw ${draw.id}: winners`,
    meta: meta(draw),
    columns: [
      { key: 'position', label: 'Position' },
      { key: 'isBackup', label: 'Backup' },
      { key: 'authorUsername', label: 'Author' },
      { key: 'tweetId', label: 'Reply id' },
      { key: 'text', label: 'Reply' },
      { key: 'url', label: 'Link' },
    ],
    rows: winners.map((w) => ({
      position: num(w.winner_position),
      isBackup: num(w.is_backup) === 1,
      authorUsername: w.author_username,
      tweetId: w.tweet_id,
      text: w.text,
      url: replyUrl(w),
    })),
  });
}

/** Every entry a draw inspected (eligible or why not, and whether it won) as an export table. */
export function entriesTable(draw: DrawRow, entries: readonly DrawEntryRow[]): ExportTable {
  return plainTable({
    title: `Draw ${draw.id}: entries`,
    meta: meta(draw),
    columns: [
      { key: 'position', label: '#' },
      { key: 'authorUsername', label: 'Author' },
      { key: 'authorId', label: 'Author id' },
      { key: 'tweetId', label: 'Reply id' },
      { key: 'createdAt', label: 'Posted' },
      { key: 'text', label: 'Reply' },
      { key: 'valid', label: 'Valid' },
      { key: 'reason', label: 'Excluded because' },
      { key: 'winnerPosition', label: 'Won' },
      { key: 'isBackup', label: 'Backup' },
    ],
    rows: entries.map((e) => ({
      position: num(e.position),
      authorUsername: e.author_username,
      authorId: e.author_id,
      tweetId: e.tweet_id,
      createdAt: e.tweet_created_at,
      text: e.text,
      valid: num(e.valid) === 1,
      reason: e.reason ?? undefined,
      winnerPosition: e.winner_position === null ? undefined : num(e.winner_position),
      isBackup: e.winner_position === null ? undefined : num(e.is_backup) === 1,
    })),
  });
}
