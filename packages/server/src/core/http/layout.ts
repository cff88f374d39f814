import { escapeHtml } from './html.js';

/** Where the dashboard's stylesheet and script are served (by this server: no CDN). */
export const ASSET_PATHS = {
  style: '/dashboard/assets/dashboard.css',
  script: '/dashboard/assets/dashboard.js',
  icon: '/dashboard/assets/icon.svg',
} as const;

/** The dashboard's sections, in navigation order. */
export const SECTIONS = [
  { path: '/dashboard', label: 'Overview' },
  { path: '/dashboard/keys', label: 'API keys' },
  { path: '/dashboard/credits', label: 'Credits' },
  { path: '/dashboard/monitors', label: 'Monitors' },
  { path: '/dashboard/webhooks', label: 'Webhooks' },
  { path: '/dashboard/jobs', label: 'Extractions & draws' },
  { path: '/dashboard/accounts', label: 'Connected accounts' },
  { path: '/dashboard/support', label: 'Support' },
] as const;

/** The path of a dashboard section. */
export type SectionPath = (typeof SECTIONS)[number]['path'];

/** The signed-in part of a page: who is signed in, the current section, and the sign-out form's token. */
export interface SignedInChrome {
  readonly email: string;
  readonly current: SectionPath;
  readonly csrf: string;
}

/** What a page shows. */
export interface PageInput {
  readonly title: string;
  /** Trusted HTML of the main region (every interpolated value already escaped). */
  readonly main: string;
  /** The navigation and sign-out of a signed-in page; absent on sign-in and OAuth pages. */
  readonly chrome?: SignedInChrome;
  /** Loads the progressive-enhancement script (copy buttons, the live event feed). */
  readonly script?: boolean;
}

/** The hidden field every dashboard form carries (checked by {@link verifyCsrf} in `csrf.ts`). */
export function csrfField(token: string): string {
  return `<input type="hidden" name="csrf" value="${escapeHtml(token)}">`;
}

function nav(chrome: SignedInChrome): string {
  const links = SECTIONS.map(
    (s) =>
      `<li><a href="${s.path}"${s.path === chrome.current ? ' aria-current="page"' : ''}>${escapeHtml(s.label)}</a></li>`,
  ).join('');
  return `<nav aria-label="Dashboard"><ul>${links}</ul></nav>
<form class="signout" method="post" action="/dashboard/sign-out">${csrfField(chrome.csrf)}<span>${escapeHtml(chrome.email)}</span> <button type="submit" class="secondary">Sign out</button></form>`;
}

/**
 * The one document shell of the dashboard and of the OAuth sign-in and consent pages: a skip link, a header
 * (with the navigation once signed in), a `main` landmark, and the stylesheet served by this server. Pages
 * work without the script; it only adds copy buttons and the live event feed.
 */
export function renderPage(input: PageInput): string {
  const script = input.script ? `<script src="${ASSET_PATHS.script}" defer></script>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)} · xsvc</title>
<link rel="stylesheet" href="${ASSET_PATHS.style}">
<link rel="icon" href="${ASSET_PATHS.icon}" type="image/svg+xml">
${script}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><p class="brand"><a href="/dashboard">xsvc</a></p>${input.chrome ? nav(input.chrome) : ''}</header>
<main id="main" tabindex="-1">
${input.main}
</main>
</body>
</html>
`;
}

/**
 * The security headers of every dashboard and OAuth page: only this server's stylesheet and script, forms
 * only to this origin (plus `formTargets`), never framed, never cached, no referrer to other sites. The
 * referrer policy is `same-origin`, not `no-referrer`: under `no-referrer` Chromium sends `Origin: null` with
 * the pages' own form posts, which the CSRF check (rightly) refuses.
 */
export function dashboardHeaders(formTargets: readonly string[] = []): Record<string, string> {
  const forms = ["'self'", ...formTargets].join(' ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self'; form-action ${forms}; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'referrer-policy': 'same-origin',
  };
}

/** A notice at the top of a page: `status` for outcomes, `alert` for errors (announced by screen readers). */
export function notice(kind: 'ok' | 'error', text: string): string {
  const role = kind === 'error' ? 'alert' : 'status';
  return `<p class="notice ${kind}" role="${role}">${escapeHtml(text)}</p>`;
}

export { escapeHtml };
