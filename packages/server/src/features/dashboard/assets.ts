import type { FastifyInstance } from 'fastify';
import { ASSET_PATHS } from '../../core/http/layout.js';

/**
 * The stylesheet: system fonts, colours with at least 4.5:1 contrast, a visible focus ring, and a layout that
 * reflows on narrow screens. Kept in the bundle (no file to ship, no CDN).
 */
export const DASHBOARD_CSS = `
:root{--fg:#1a1a1a;--muted:#4a4a4a;--bg:#fff;--line:#d0d0d0;--accent:#1d4ed8;--ok-bg:#e8f5e9;--ok-fg:#1b5e20;--err-bg:#fdecea;--err-fg:#8a1c12;--warn-fg:#7a4a00}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem}
.skip:focus{left:.5rem}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.75rem 1.5rem;border-bottom:1px solid var(--line)}
.brand{margin:0;font-weight:700}
.brand a{text-decoration:none;color:var(--fg)}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
nav a[aria-current=page]{font-weight:700;color:var(--fg)}
.signout{margin-left:auto;display:flex;align-items:center;gap:.5rem;color:var(--muted)}
.signout button{margin:0}
main{max-width:64rem;margin:0 auto;padding:1.5rem}
main:focus{outline:none}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.2rem;margin:2rem 0 .75rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600}
caption{text-align:left;color:var(--muted);padding-bottom:.25rem}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em;overflow-wrap:anywhere}
form.inline{display:inline}
td button{margin:0}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=text],input[type=email],input[type=url],select,textarea{font:inherit;padding:.45rem .6rem;border:1px solid #767676;border-radius:.25rem;width:100%;max-width:28rem}
button{font:inherit;padding:.45rem 1rem;border-radius:.25rem;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer;margin:.5rem .5rem 0 0}
button.secondary{background:#fff;color:var(--accent)}
button.danger{background:#fff;color:var(--err-fg);border-color:var(--err-fg)}
.notice{padding:.75rem 1rem;border-radius:.25rem}
.notice.ok{background:var(--ok-bg);color:var(--ok-fg)}
.notice.error{background:var(--err-bg);color:var(--err-fg)}
.secret{padding:.75rem 1rem;border:2px solid var(--accent);border-radius:.25rem;margin-bottom:1rem}
.secret h2{margin-top:0}
.copyrow{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}
.copyrow button{margin:0}
.muted{color:var(--muted)}
.badge{display:inline-block;padding:0 .45rem;border-radius:.75rem;border:1px solid currentColor;font-size:.85rem}
.badge.bad{color:var(--err-fg)}
.badge.warn{color:var(--warn-fg)}
.badge.good{color:var(--ok-fg)}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.25rem 1rem}
dl.facts dd{overflow-wrap:anywhere}
@media (max-width:30rem){dl.facts{grid-template-columns:minmax(0,1fr);gap:0}dl.facts dd{margin-bottom:.5rem}}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0}
a.button{display:inline-block;font:inherit;padding:.45rem 1rem;border-radius:.25rem;border:1px solid var(--accent);text-decoration:none;margin:.5rem .5rem 0 0;line-height:1.5}
a.button.secondary{background:#fff;color:var(--accent)}
a.button.danger{background:#fff;color:var(--err-fg);border-color:var(--err-fg)}
button.danger:hover,a.button.danger:hover{background:var(--err-bg)}
button.secondary:hover,a.button.secondary:hover{background:#eff4ff}
button:not(.secondary):not(.danger):hover{background:#1e40af}
.actions{display:flex;flex-wrap:nowrap;gap:.4rem;align-items:center}
.actions button,.actions a.button{margin:0;padding:.2rem .7rem;font-size:.9rem}
.nw{white-space:nowrap}
.table-scroll{overflow-x:auto;margin:.5rem 0 1rem}
.table-scroll>table{margin:0}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,28rem),1fr));gap:1rem 1.5rem;margin-top:1.5rem}
figure.chart,section.chart{margin:1.5rem 0;padding:1rem;border:1px solid var(--line);border-radius:.5rem}
.charts .chart{margin:0}
h2.chart-title{margin:0}
p.chart-summary{margin:0}
.monitor-list{list-style:none;margin:.75rem 0 0;padding:0}
.monitor-list li{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.25rem 1rem;padding:.4rem 0;border-bottom:1px solid var(--line)}
.monitor-list .name{overflow-wrap:anywhere}
figure.chart figcaption{margin-bottom:.5rem}
.chart-title{display:block;font-weight:600;font-size:1.05rem}
.chart-summary{display:block;color:var(--muted);font-size:.9rem}
figure.chart svg[role=img]{display:block;width:100%;height:auto;font-size:12px}
.chart-svg.narrow{display:none!important}
@media (max-width:40rem){.chart-svg.wide{display:none!important}.chart-svg.narrow{display:block!important}}
figure.chart .grid{stroke:#e5e7eb;stroke-width:1}
figure.chart .axis{stroke:#767676;stroke-width:1}
figure.chart .tick{fill:var(--muted);font-size:12px}
figure.chart .empty{fill:var(--muted);font-size:14px}
figure.chart .rate{fill:none;stroke:#1a1a1a;stroke-width:2;stroke-dasharray:5 3}
figure.chart .rate-dot{fill:#1a1a1a;stroke:#fff;stroke-width:1.5}
figure.chart .bar:hover{opacity:.8}
.legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:.5rem 0 0;padding:0;font-size:.9rem}
.legend li{display:flex;align-items:center;gap:.35rem}
.swatch{width:.8rem;height:.8rem;flex:none}
.chart-data{margin-top:.5rem;font-size:.9rem}
.chart-data summary{cursor:pointer;color:var(--accent)}
.chart-more{margin:.5rem 0 0;font-size:.9rem}
.chart-data table{margin-top:.5rem}
.chart-data th,.chart-data td{padding:.2rem .5rem}
.chart-data tbody th{font-weight:400}
.activity{display:flex;align-items:center;gap:.5rem;font-size:.9rem;white-space:nowrap}
.spark{flex:none}
.spark rect{fill:var(--accent)}
.spark .axis{stroke:#767676;stroke-width:1}
`;

/**
 * Progressive enhancement only (every flow works without it): a copy button next to each `[data-copy]`
 * value, and the live event feed, which polls the feed URL of `tbody[data-feed]` for events newer than the
 * newest row and prepends them, announcing how many arrived in its live region.
 */
export const DASHBOARD_JS = `(() => {
  for (const el of document.querySelectorAll('[data-copy]')) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'secondary';
    // The visible text is the whole name (no aria-label that could drift from it once it says "Copied").
    button.textContent = el.getAttribute('data-copy') || 'Copy';
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(el.textContent || '');
        button.textContent = 'Copied';
      } catch {
        const range = document.createRange();
        range.selectNodeContents(el);
        const selection = getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        button.textContent = 'Selected: press Ctrl+C';
      }
    });
    el.after(button);
  }
  const feed = document.querySelector('tbody[data-feed]');
  if (!feed) return;
  const status = document.getElementById(feed.getAttribute('data-status') || '');
  let after = feed.getAttribute('data-after') || '';
  let busy = false;
  const poll = async () => {
    if (busy || document.hidden) return;
    busy = true;
    try {
      const url = feed.getAttribute('data-feed') + (after ? '?after=' + encodeURIComponent(after) : '');
      const res = await fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } });
      if (res.status === 401) { location.reload(); return; }
      if (!res.ok) return;
      const body = await res.json();
      if (body.count > 0) {
        const empty = feed.querySelector('[data-empty]');
        if (empty) empty.remove();
        feed.insertAdjacentHTML('afterbegin', body.rows);
        after = body.newest;
        if (status) status.textContent = body.count + (body.count === 1 ? ' new event' : ' new events');
      }
    } catch {
      /* offline for a moment: the next poll tries again */
    } finally {
      busy = false;
    }
  };
  setInterval(poll, Number(feed.getAttribute('data-interval')) || 2000);
})();
`;

/** The tab icon (an "x" on the accent colour), so browsers do not ask for a `/favicon.ico` nobody serves. */
export const DASHBOARD_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d4ed8"/><path d="M10 10l12 12M22 10L10 22" stroke="#fff" stroke-width="4" stroke-linecap="round"/></svg>`;

/** Serves the stylesheet, the script and the icon (cacheable for an hour; all are part of the server's build). */
export function registerDashboardAssets(app: FastifyInstance): void {
  const serve = (path: string, type: string, body: string) =>
    app.get(path, async (_request, reply) =>
      reply
        .header('content-type', `${type}; charset=utf-8`)
        .header('cache-control', 'public, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(body),
    );
  serve(ASSET_PATHS.style, 'text/css', DASHBOARD_CSS);
  serve(ASSET_PATHS.script, 'text/javascript', DASHBOARD_JS);
  serve(ASSET_PATHS.icon, 'image/svg+xml', DASHBOARD_ICON);
}
