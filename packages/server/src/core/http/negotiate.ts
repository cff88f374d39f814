import type { FastifyRequest } from 'fastify';

/**
 * The quality (`q`) an `Accept` header gives `type` (`application/json`), and whether it names the type
 * itself: the most specific range that matches wins (`type/subtype`, then `type/*`, then `*\/*`), as RFC
 * 9110 12.5.1 says; 0 when none matches. A `+json` suffix type counts as JSON.
 */
function quality(accept: string, type: string): { q: number; named: boolean } {
  const [major] = type.split('/');
  let best = { specificity: -1, q: 0 };
  for (const part of accept.split(',')) {
    const [rangeRaw = '', ...params] = part.split(';');
    const range = rangeRaw.trim().toLowerCase();
    if (!range) continue;
    const qParam = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const parsed = qParam === undefined ? 1 : Number(qParam.slice(2));
    const q = Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : 0;
    const specificity =
      range === type || (type === 'application/json' && /^application\/[^/]+\+json$/.test(range))
        ? 2
        : range === `${major}/*`
          ? 1
          : range === '*/*'
            ? 0
            : -1;
    if (specificity > best.specificity) best = { specificity, q };
  }
  return { q: best.q, named: best.specificity === 2 };
}

/**
 * True when a request to a route that answers browsers with HTML pages (the consent form's target) should
 * get its errors as JSON instead: its `Accept` weighs `application/json` above `text/html`, or equally
 * but names JSON itself (`application/json, text/plain, *\/*`), or names neither (none, `*\/*`) and sent a
 * JSON body, as programs do. A browser's form post (`text/html` named first, a form body) keeps the page.
 */
export function wantsJson(request: Pick<FastifyRequest, 'headers'>): boolean {
  const raw = request.headers.accept;
  const accept = (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).trim();
  const json = quality(accept || '*/*', 'application/json');
  const html = quality(accept || '*/*', 'text/html');
  if (json.q !== html.q) return json.q > html.q;
  if (json.q === 0) return false;
  // Equal weights: the type the client names itself (`application/json, */*`, as HTTP libraries send)...
  if (json.named !== html.named) return json.named;
  // ... else (no Accept, `*/*`) what it sent: a JSON body comes from a program, a form from a page.
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  return /^application\/([^;]+\+)?json\b/.test(type.trim());
}
