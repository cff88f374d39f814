import { escapeHtml } from '../../core/http/layout.js';

/** An ISO date as a readable UTC time inside `<time>` (an absent one as a dash). */
export function when(iso: string | undefined | null): string {
  if (!iso) return '<span class="muted">—</span>';
  const text = iso
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC')
    .replace(/Z$/, ' UTC');
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(text)}</time>`;
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
 * list shows `empty` in one row.
 */
export function table(
  caption: string,
  headers: readonly string[],
  rows: readonly string[][],
  empty: string,
): string {
  const head = headers.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('');
  const body = rows.length
    ? rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n')
    : `<tr><td colspan="${headers.length}" class="muted">${escapeHtml(empty)}</td></tr>`;
  return `<table><caption>${escapeHtml(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** A definition list of facts (label, trusted HTML value). */
export function facts(items: readonly [string, string][]): string {
  return `<dl class="facts">${items.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}
