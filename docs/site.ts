/**
 * Where the documentation site is read, in one place: the SDK's generated method docs link each operation to
 * its reference page here (`packages/sdk/scripts/generate.ts`), and the site's dev server listens on this
 * origin (`.vitepress/config.mts`), so the links open the page with `pnpm docs:dev`. There is no hosted site
 * yet; when there is, set its URL here and run `pnpm generate` (see `docs/dev/docs-site.md`).
 */
export const DOCS_BASE_URL = 'http://localhost:5173';

/** The reference page of an operation (`searchTweets` → `<site>/reference/searchTweets`). */
export function referenceUrl(operationId: string): string {
  return `${DOCS_BASE_URL}/reference/${operationId}`;
}
