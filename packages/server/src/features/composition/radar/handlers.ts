import type { schemas } from '@xsvc/sdk/contract';
import type { Selectable } from 'kysely';
import { num } from '../../../core/db/database.js';
import { HttpError } from '../../../core/http/errors.js';
import { cursorCodec, legacyTagged } from '../../../core/paging/cursor.js';
import { defineReadHandlers } from '../../../core/reads/define.js';
import type { RadarItemsTable } from '../tables.js';
import { RADAR_REGIONS } from './sources.js';

/** Page size of the radar when `limit` is not given (the contract's default). */
const DEFAULT_LIMIT = 50;
/** Cursors of the radar feed: the score and id of a page's last item. */
const RADAR_CURSOR = cursorCodec('radar', { score: 'int', id: 'id' }, { legacy: legacyTagged('rd') });

type RadarRow = Selectable<RadarItemsTable>;

/**
 * The item's id at its source, used to de-duplicate (reference shapes 2.2): the `id` or `q` parameter of its
 * link (news item, search term), otherwise the link's last path segment (repository, post, page, market).
 */
export function sourceIdOf(row: Pick<RadarRow, 'id' | 'url'>): string {
  try {
    const u = new URL(row.url);
    const param = u.searchParams.get('id') ?? u.searchParams.get('q');
    if (param) return param;
    const last = u.pathname.split('/').filter(Boolean).pop();
    if (last) return decodeURIComponent(last);
  } catch {
    // Not a URL: fall back to the radar's own id.
  }
  return row.id;
}

/** Language of every radar item: the seeded sources publish in English. */
const RADAR_LANGUAGE = 'en';

/**
 * A radar item as answered (spec 2.15, reference shapes 2.2). The radar records an item as it is published,
 * so `createdAt` is `publishedAt`.
 */
export function toRadarItem(row: RadarRow): schemas.RadarItem {
  const publishedAt = new Date(num(row.published_at)).toISOString();
  return {
    id: row.id,
    title: row.title,
    source: row.source as schemas.RadarItem['source'],
    sourceId: sourceIdOf(row),
    url: row.url,
    description: row.description,
    category: row.category as schemas.RadarItem['category'],
    language: RADAR_LANGUAGE,
    region: row.region,
    score: num(row.score_centi) / 100,
    publishedAt,
    createdAt: publishedAt,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  };
}

/**
 * The radar feed (spec 2.15): items published within the last `hours` (1-72, default 6), optionally of one
 * `source`, `category` and `region` (`global`, the default, reads every region), strongest first (score,
 * then id), in style-A pages. Free.
 */
export const radarHandlers = defineReadHandlers({
  getRadar: async (ctx) => {
    ctx.requirePrincipal();
    const { after, cursor, limit, category, hours, region, source } = ctx.query;
    const regionKey = region.toLowerCase();
    if (!(RADAR_REGIONS as readonly string[]).includes(regionKey))
      throw new HttpError('invalid_input', `region: must be one of ${RADAR_REGIONS.join(', ')}`);
    const token = after ?? cursor;
    const position = RADAR_CURSOR.decode(token);
    const pageSize = limit ?? DEFAULT_LIMIT;
    const now = ctx.services.clock.now();
    let q = ctx.services.database.db
      .selectFrom('radar_items')
      .selectAll()
      .where('published_at', '>=', now - hours * 3_600_000)
      .where('published_at', '<=', now);
    if (source) q = q.where('source', '=', source);
    if (category) q = q.where('category', '=', category);
    if (regionKey !== 'global') q = q.where('region', '=', regionKey);
    if (position) {
      q = q.where((eb) =>
        eb.or([
          eb('score_centi', '<', position.score),
          eb.and([eb('score_centi', '=', position.score), eb('id', '>', position.id)]),
        ]),
      );
    }
    const rows = await q
      .orderBy('score_centi', 'desc')
      .orderBy('id', 'asc')
      .limit(pageSize + 1)
      .execute();
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    const hasMore = rows.length > pageSize && last !== undefined;
    return {
      items: page.map(toRadarItem),
      hasMore,
      ...(hasMore && { nextCursor: RADAR_CURSOR.encode({ score: Number(last.score_centi), id: last.id }) }),
    };
  },
});
