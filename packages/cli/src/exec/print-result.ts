import type { Output } from '../output/output.js';
import { findItems, renderItems, renderRecord } from '../output/render.js';

/**
 * Prints an answer: JSON with `--json`; otherwise its list as a table, or the record as `key  value` lines.
 * An empty list says so on stderr, so that stdout stays empty for a pipe.
 */
export function printResult(out: Output, body: unknown, itemsKey: string | undefined): void {
  if (out.json) {
    out.value(body ?? null, itemsKey);
    return;
  }
  if (body === undefined || body === '') return;
  if (typeof body === 'string') {
    out.line(body.replace(/\n$/, ''));
    return;
  }
  const found = findItems(body, itemsKey);
  if (found) {
    if (found.items.length === 0) out.hint(out.errStyle.dim('No results.'));
    else for (const line of renderItems(found, out.layout)) out.line(line);
    return;
  }
  for (const line of renderRecord(body, out.layout)) out.line(line);
}
