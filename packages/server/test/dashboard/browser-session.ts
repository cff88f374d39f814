import type { FastifyInstance } from 'fastify';
import { type MagicLinkMessage, watchMagicLinks } from '../../src/core/auth/outbox.js';

/** An answer of the dashboard as a test reads it. */
export interface PageAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
}

/**
 * A browser-like client of the dashboard over `app.inject`: keeps the cookies it is given, sends forms as
 * `application/x-www-form-urlencoded` with a same-origin `Origin` and `Sec-Fetch-Site`, and signs in by
 * following the magic link the server sends to its listeners.
 */
export class DashboardBrowser {
  readonly cookies = new Map<string, string>();
  /** Every `Set-Cookie` line received, as sent (to check the cookies' attributes). */
  readonly setCookies: string[] = [];
  private readonly links: MagicLinkMessage[] = [];

  /**
   * `origin` is the one the browser's forms carry; `always` are headers sent with every request (such as a
   * proxy's `X-Forwarded-Proto`).
   */
  constructor(
    private readonly app: FastifyInstance,
    readonly origin = 'http://127.0.0.1:8787',
    private readonly always: Record<string, string> = {},
  ) {
    watchMagicLinks(app, (m) => this.links.push(m));
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(setCookie: string | string[] | number | undefined): void {
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [String(setCookie)] : []) {
      this.setCookies.push(line);
      const [pair = ''] = line.split(';');
      const [name = '', ...value] = pair.split('=');
      if (/Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value.join('='));
    }
  }

  /** GET a path with the cookies held. */
  async get(path: string, headers: Record<string, string> = {}): Promise<PageAnswer> {
    const res = await this.app.inject({
      method: 'GET',
      url: path,
      headers: { ...this.always, cookie: this.cookieHeader(), ...headers },
    });
    this.keep(res.headers['set-cookie']);
    return { status: res.statusCode, body: res.body, headers: res.headers };
  }

  /** POSTs a form; `headers` overrides the same-origin defaults (to forge a cross-site request). */
  async post(
    path: string,
    form: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<PageAnswer> {
    const res = await this.app.inject({
      method: 'POST',
      url: path,
      headers: {
        ...this.always,
        cookie: this.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        origin: this.origin,
        'sec-fetch-site': 'same-origin',
        ...headers,
      },
      payload: new URLSearchParams(form).toString(),
    });
    this.keep(res.headers['set-cookie']);
    return { status: res.statusCode, body: res.body, headers: res.headers };
  }

  /** The CSRF token of the first form of a page. */
  static csrfOf(page: PageAnswer): string {
    const m = /name="csrf" value="([^"]+)"/.exec(page.body);
    if (!m?.[1]) throw new Error(`no CSRF field in ${page.body.slice(0, 300)}`);
    return m[1];
  }

  /** Signs in through the dashboard's form and the link the server sends; returns the page it lands on. */
  async signIn(email: string, next = '/dashboard'): Promise<PageAnswer> {
    const form = await this.get(`/dashboard/sign-in?next=${encodeURIComponent(next)}`);
    const before = this.links.length;
    const sent = await this.post('/dashboard/sign-in', { csrf: DashboardBrowser.csrfOf(form), email, next });
    if (sent.status !== 200 || this.links.length !== before + 1)
      throw new Error(`no link sent: ${sent.status}`);
    const link = new URL(this.links.at(-1)?.url ?? '');
    const landed = await this.get(`${link.pathname}${link.search}`);
    const location = String(landed.headers.location);
    return this.get(location);
  }
}
