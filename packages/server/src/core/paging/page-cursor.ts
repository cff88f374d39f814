/**
 * Opaque style-A cursors (spec 4.1) of the composition lists: a keyset position (the sort value and the id
 * of the last item of a page) behind a tag naming the list, base64url-encoded. A cursor of another list, or
 * one that was tampered with, decodes to undefined, which the handlers answer with 400 `invalid_input`.
 */
export function encodeCursor(tag: string, sortValue: number | bigint, id: string): string {
  return Buffer.from(`${tag}:${sortValue}:${id}`, 'utf8').toString('base64url');
}

/** The position a cursor of list `tag` holds, or undefined when it is not one. */
export function decodeCursor(tag: string, cursor: string): { sortValue: bigint; id: string } | undefined {
  const m = new RegExp(`^${tag}:(-?\\d{1,20}):([\\w-]{1,64})$`).exec(
    Buffer.from(cursor, 'base64url').toString('utf8'),
  );
  if (!m) return undefined;
  return { sortValue: BigInt(m[1] as string), id: m[2] as string };
}
