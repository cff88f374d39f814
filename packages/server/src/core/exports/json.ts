import { type ExportTable, rowObject } from './table.js';

/** `value` as indented JSON, nested `depth` levels deep. */
function indented(value: unknown, depth: number): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${'  '.repeat(depth)}`);
}

/**
 * The table as JSON, an item at a time: the array of rows as objects (empty cells left out), or the
 * table's envelope `{ ...head, [key]: [items] }`. Indented like `JSON.stringify(value, null, 2)`.
 */
export async function* jsonLines<T>(table: ExportTable<T>): AsyncGenerator<string> {
  const env = table.json;
  const depth = env ? 2 : 1;
  const item = env ? env.item : (row: T) => rowObject(table.columns, table.cells(row));
  if (env) {
    let head = '{\n';
    for (const [k, v] of Object.entries(env.head)) head += `  ${JSON.stringify(k)}: ${indented(v, 1)},\n`;
    yield `${head}  ${JSON.stringify(env.key)}: [`;
  } else yield '[';
  let first = true;
  for await (const row of table.rows) {
    yield `${first ? '' : ','}\n${'  '.repeat(depth)}${indented(item(row), depth)}`;
    first = false;
  }
  const close = first ? ']' : `\n${'  '.repeat(depth - 1)}]`;
  yield env ? `${close}\n}\n` : `${close}\n`;
}
