/**
 * Which columns a listing shows on a terminal: a preset per kind of item (by the name of the items array),
 * else the item's first scalar fields, `id` first and long text last.
 */

/** A column: its header and the dotted path of the field it shows. */
export interface Column {
  readonly header: string;
  readonly path: string;
}

const PRESETS: Readonly<Record<string, readonly string[]>> = {
  tweets: ['id', 'author.username', 'createdAt', 'likeCount', 'replyCount', 'text'],
  users: ['id', 'username', 'name', 'followers', 'verified', 'description'],
  events: ['id', 'type', 'username', 'query', 'occurredAt', 'xEventId'],
  monitors: ['id', 'username', 'query', 'eventTypes', 'isActive', 'createdAt'],
  webhooks: ['id', 'url', 'eventTypes', 'deliveryStatus', 'isActive', 'createdAt'],
  deliveries: ['id', 'eventType', 'status', 'attempts', 'lastStatusCode', 'createdAt', 'lastError'],
  draws: ['id', 'status', 'totalEntries', 'validEntries', 'createdAt', 'tweetUrl'],
  winners: ['position', 'authorUsername', 'tweetId', 'isBackup'],
  extractions: ['id', 'toolType', 'status', 'totalResults', 'createdAt'],
  results: ['id', 'xUsername', 'xDisplayName', 'xFollowersCount', 'tweetId', 'tweetText'],
  keys: ['id', 'name', 'prefix', 'isActive', 'createdAt', 'lastUsedAt'],
  tickets: ['publicId', 'subject', 'status', 'messageCount', 'updatedAt'],
  trends: ['rank', 'name', 'query', 'description'],
  accounts: ['id', 'xUsername', 'status', 'health', 'createdAt'],
  drafts: ['id', 'goal', 'createdAt', 'text'],
  lists: ['id', 'name', 'memberCount', 'subscriberCount', 'description'],
  styles: ['xUsername', 'tweetCount', 'isOwnAccount', 'fetchedAt'],
};

/** Fields whose text is long: shown last, and truncated first. */
const LONG = new Set(['text', 'description', 'tweetText', 'lastError', 'message', 'body', 'bio']);
const MAX_GENERIC = 6;

/** The value at a dotted path (`author.username`). */
export function valueAt(item: unknown, path: string): unknown {
  let v: unknown = item;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean', 'bigint'].includes(typeof v);

function shown(v: unknown): boolean {
  if (isScalar(v)) return true;
  return Array.isArray(v) && v.every(isScalar);
}

function header(path: string): string {
  const last = path.split('.').at(-1)!;
  return path === 'author.username' ? 'AUTHOR' : last.replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase();
}

/** The columns for these items, listed under `kind` (the name of their array). */
export function chooseColumns(items: readonly unknown[], kind: string | undefined): Column[] {
  const sample = items.slice(0, 20);
  const present = (path: string) => sample.some((it) => valueAt(it, path) !== undefined);
  const preset = kind ? PRESETS[kind] : undefined;
  if (preset) {
    const cols = preset.filter(present);
    if (cols.length >= 2) return cols.map((path) => ({ header: header(path), path }));
  }
  const keys: string[] = [];
  for (const it of sample) {
    if (it === null || typeof it !== 'object') continue;
    for (const [k, v] of Object.entries(it)) if (!keys.includes(k) && shown(v)) keys.push(k);
  }
  const id = keys.filter((k) => k === 'id');
  const short = keys.filter((k) => k !== 'id' && !LONG.has(k));
  const long = keys.filter((k) => LONG.has(k));
  const picked = [...id, ...short].slice(0, MAX_GENERIC - Math.min(1, long.length)).concat(long.slice(0, 1));
  return picked.map((path) => ({ header: header(path), path }));
}

/** True for a column whose text may be cut to make the table fit. */
export function isLong(column: Column): boolean {
  return LONG.has(column.path.split('.').at(-1)!);
}
