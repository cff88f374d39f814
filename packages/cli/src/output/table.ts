import { cellText } from './cell.js';
import { type Column, isLong, valueAt } from './columns.js';
import type { Style } from './style.js';
import { pad, textWidth, truncate } from './text-width.js';

/** How a table is laid out. */
export interface TableLayout {
  /** A terminal: aligned columns under a header, cut to `width`. Otherwise tab-separated rows, no header. */
  readonly tty: boolean;
  readonly width: number;
  readonly style: Style;
}

const GAP = 2;
const MIN_COLUMN = 6;

/**
 * Renders items as table lines. On a terminal the long text columns are cut first to fit the width; piped,
 * every value is printed whole, one item per line, tab-separated (like `gh`), for `cut` and `awk`.
 */
export function renderTable(
  items: readonly unknown[],
  columns: readonly Column[],
  layout: TableLayout,
): string[] {
  const rows = items.map((it) => columns.map((c) => cellText(valueAt(it, c.path))));
  if (!layout.tty) return rows.map((r) => r.join('\t'));
  const widths = columns.map((c, i) => Math.max(textWidth(c.header), ...rows.map((r) => textWidth(r[i]!))));
  fit(widths, columns, layout.width);
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => {
        const cut = truncate(cell, widths[i]!);
        return i === cells.length - 1 ? cut : pad(cut, widths[i]!);
      })
      .join(' '.repeat(GAP))
      .trimEnd();
  return [layout.style.bold(line(columns.map((c) => c.header))), ...rows.map(line)];
}

/** Narrows columns until the row fits: long text columns first, then the widest ones. */
function fit(widths: number[], columns: readonly Column[], total: number): void {
  const sum = () => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
  for (const longFirst of [true, false]) {
    while (sum() > total) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) {
        if (widths[i]! <= MIN_COLUMN || (longFirst && !isLong(columns[i]!))) continue;
        if (widest < 0 || widths[i]! > widths[widest]!) widest = i;
      }
      if (widest < 0) break;
      widths[widest] = Math.max(MIN_COLUMN, widths[widest]! - (sum() - total));
    }
  }
}
