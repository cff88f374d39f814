import { escapeHtml } from '../../../core/http/layout.js';
import { badge, code, table, when } from '../format.js';
import type { DashboardRoutes } from '../http.js';

/** Export formats offered as links (every format of the API's export operations is reachable by URL). */
const FORMATS = ['csv', 'xlsx', 'json', 'pdf'] as const;

/** Links to an export route in each offered format; the session cookie authenticates the download. */
function exportLinks(path: string, what: string): string {
  return FORMATS.map(
    (f) =>
      `<a href="${path}?format=${f}" aria-label="${escapeHtml(`${what} as ${f.toUpperCase()}`)}">${f.toUpperCase()}</a>`,
  ).join(' · ');
}

/** What an extraction read: its tweet, account, community, list, space or search. */
function targetOf(job: {
  targetTweetId?: string | undefined;
  targetUsername?: string | undefined;
  targetCommunityId?: string | undefined;
  targetListId?: string | undefined;
  targetSpaceId?: string | undefined;
  searchQuery?: string | undefined;
}): string {
  if (job.targetUsername) return `@${job.targetUsername}`;
  return (
    job.targetTweetId ??
    job.searchQuery ??
    job.targetCommunityId ??
    job.targetListId ??
    job.targetSpaceId ??
    ''
  );
}

/** Mounts the page of extractions and draws, with their export links. */
export function registerJobs(routes: DashboardRoutes): void {
  routes.page('/dashboard/jobs', async (s) => {
    const [extractions, draws] = await Promise.all([
      s.api.extractions.list({ limit: 50 }),
      s.api.draws.list({ limit: 50 }),
    ]);
    const extractionRows = extractions.items.map((e) => [
      when(e.createdAt),
      code(e.toolType),
      escapeHtml(targetOf(e)),
      `${badge(e.status)}${e.errorMessage ? ` ${escapeHtml(e.errorMessage)}` : ''}`,
      String(e.totalResults),
      e.status === 'completed'
        ? exportLinks(`/api/v1/extractions/${encodeURIComponent(e.id)}/export`, `Extraction ${e.id}`)
        : '',
    ]);
    const drawRows = draws.items.map((d) => [
      when(d.createdAt),
      `<a href="${escapeHtml(d.tweetUrl)}" rel="noreferrer">${escapeHtml(d.tweetUrl)}</a>`,
      badge(d.status),
      escapeHtml(`${d.validEntries} of ${d.totalEntries}`),
      d.status === 'completed'
        ? exportLinks(`/api/v1/draws/${encodeURIComponent(d.id)}/export`, `Draw ${d.id}`)
        : '',
    ]);
    return {
      title: 'Extractions and draws',
      main: `<h1>Extractions and draws</h1>
<h2>Extractions</h2>
${table('The 50 most recent extraction jobs', ['Started', 'Tool', 'Target', 'Status', 'Results', 'Export'], extractionRows, 'No extractions yet.')}
<h2>Draws</h2>
${table('The 50 most recent giveaway draws', ['Requested', 'Giveaway tweet', 'Status', 'Valid entries', 'Export'], drawRows, 'No draws yet.')}`,
    };
  });
}
