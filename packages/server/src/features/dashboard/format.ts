import { escapeHtml } from '../../core/http/layout.js';

/** Dates as a reader expects them: `2 Dec 2026, 17:31:06 UTC` (the server's times are all UTC). */
const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** An instant (epoch ms or ISO 8601) as a readable UTC date and time, e.g. `2 Dec 2026, 17:31:06 UTC`. */
export function readableTime(at: number | string): string {
  return `${DATE_TIME.format(new Date(at))} UTC`;
}

/** An ISO date as a readable UTC time inside `<time>` (an absent or unreadable one as a dash). */
export function when(iso: string | undefined | null): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '<span class="muted">—</span>';
  // The date and the time each stay whole: a narrow column breaks the line between them only.
  const [date = '', time = ''] = readableTime(iso).split(', ');
  return `<time datetime="${escapeHtml(iso)}"><span class="nw">${escapeHtml(date)},</span> <span class="nw">${escapeHtml(time)}</span></time>`;
}

const GROUPED = new Intl.NumberFormat('en-US');

/**
 * A number for the reader, with thousands separators: `9999976` → `9,999,976`, `-1500` → `-1,500`,
 * `12.5` → `12.5`. Integer strings (the API's credit amounts are bigint strings) keep every digit; anything
 * that is not a number is shown as it is.
 */
export function count(value: number | bigint | string): string {
  if (typeof value === 'bigint') return GROUPED.format(value);
  if (typeof value === 'number') return Number.isFinite(value) ? GROUPED.format(value) : String(value);
  const m = /^([+-]?)(\d+)(\.\d+)?$/.exec(value.trim());
  if (!m) return value;
  return `${m[1]}${GROUPED.format(BigInt(m[2] ?? '0'))}${m[3] ?? ''}`;
}

/**
 * An allowance for the reader: `unlimited` for the API's "no limit" value (the largest safe integer, as
 * `monitorsAllowed` is since slots became unlimited), else the number with separators.
 */
export function allowance(value: number): string {
  return value >= Number.MAX_SAFE_INTEGER ? 'unlimited' : count(value);
}

/** A signed credit amount: `+1,000` for grants, `-21` for charges. */
export function signedCount(value: string): string {
  const text = count(value);
  return text.startsWith('-') || text === '0' ? text : `+${text}`;
}

const TONES: Record<string, 'good' | 'warn' | 'bad'> = {
  active: 'good',
  healthy: 'good',
  delivered: 'good',
  completed: 'good',
  resolved: 'good',
  paused: 'warn',
  pending: 'warn',
  failed: 'bad',
  running: 'warn',
  recovering: 'warn',
  temporaryIssue: 'warn',
  needs_attention: 'bad',
  needsReauth: 'bad',
  exhausted: 'bad',
  revoked: 'bad',
  locked: 'bad',
  suspended: 'bad',
};

/** A status as a badge whose colour follows its meaning (the text says it too: colour is never alone). */
export function badge(status: string): string {
  const tone = TONES[status];
  return `<span class="badge${tone ? ` ${tone}` : ''}">${escapeHtml(status)}</span>`;
}

/** Plain text, escaped, in a `code` element. */
export function code(text: string): string {
  return `<code>${escapeHtml(text)}</code>`;
}

/**
 * A table with a caption and column headers; `rows` are trusted HTML cells (escaped by the caller). An empty
 * list shows `empty` in one row. The columns listed in `numeric` (by index) are right-aligned, so their digits
 * line up.
 */
export function table(
  caption: string,
  headers: readonly string[],
  rows: readonly string[][],
  empty: string,
  numeric: readonly number[] = [],
): string {
  const cls = (i: number) => (numeric.includes(i) ? ' class="num"' : '');
  const head = headers.map((h, i) => `<th scope="col"${cls(i)}>${escapeHtml(h)}</th>`).join('');
  const body = rows.length
    ? rows.map((cells) => `<tr>${cells.map((c, i) => `<td${cls(i)}>${c}</td>`).join('')}</tr>`).join('\n')
    : `<tr><td colspan="${headers.length}" class="muted">${escapeHtml(empty)}</td></tr>`;
  return scrollable(
    caption,
    `<table><caption>${escapeHtml(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`,
  );
}

/**
 * A table in a box that scrolls sideways when the screen is narrower than the table (so the page itself
 * never does): a named region, focusable so a keyboard can scroll it too.
 */
export function scrollable(name: string, tableHtml: string): string {
  return `<div class="table-scroll" role="region" aria-label="${escapeHtml(name)}" tabindex="0">${tableHtml}</div>`;
}

/** A definition list of facts (label, trusted HTML value). */
export function facts(items: readonly [string, string][]): string {
  return `<dl class="facts">${items.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}
