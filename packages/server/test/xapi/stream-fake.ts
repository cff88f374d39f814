import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http, passthrough } from 'msw';
import { expect } from 'vitest';
import { invalidRequest, unauthorized } from './fixtures/errors.js';
import { TOKEN, xFacts } from './helpers.js';

/**
 * A stand-in for X's filtered stream on a loopback port (a real HTTP server, so a connection's end and a
 * client's disconnection are real TCP ones): every request is checked against X's facts (`xFacts`, as the
 * msw routes are: a violation fails the test) and needs the app token. It keeps the rule set as X does (ids,
 * `DuplicateRule`, `dry_run`, an "Invalid Rule" for what `invalid` names), and answers the stream as
 * connections a test writes lines to, ends, or refuses with a status. It records when each connection opened
 * and closed, so a test can tell that only one was ever open.
 */

/** One stream connection the stand-in answered 200. */
export interface FakeConnection {
  openedAt: number;
  closedAt?: number;
  /** The request's URL. */
  url: URL;
  write(text: string): void;
  /** X drops the stream. */
  end(): void;
}

/** A rule as the stand-in keeps it. */
export interface FakeRule {
  id: string;
  value: string;
  tag?: string;
}

type RulesBody = { add?: { value: string; tag?: string }[]; delete?: { ids: string[] } };

export class FakeXStream {
  rules: FakeRule[] = [];
  connections: FakeConnection[] = [];
  /** Answers for the next connection attempts, in order (a status, with headers); 200 when empty. */
  refusals: { status: number; headers?: Record<string, string> }[] = [];
  /** Every rules request: `POST` bodies with their `dry_run`, and `GET`s. */
  ruleCalls: { method: string; dryRun: boolean; body?: RulesBody }[] = [];
  /** When each connection attempt arrived (ms). */
  attempts: number[] = [];
  /** X's rule cap for the app (`rules/counts`). */
  cap = 1000;
  /** A rule value X would refuse as invalid, with its detail. */
  invalid: (value: string) => string | undefined = () => undefined;
  #nextId = 1_700_000_000_000_000_000n;
  #server: Server | undefined;
  origin = '';

  /** Listens on a free loopback port. */
  async listen(): Promise<this> {
    const server = createServer((req, res) => {
      this.#handle(req, res).catch((err) => {
        res.writeHead(500).end(String(err));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.#server = server;
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  /** Closes every connection and the server. */
  async close(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  /** The msw handler that lets requests to this stand-in through (the suite's msw server refuses others). */
  passthrough() {
    return http.all(`${this.origin}/*`, () => passthrough());
  }

  /** The most connections that were open at once: the most still open when one was opened. */
  get maxOpen(): number {
    return Math.max(
      0,
      ...this.connections.map(
        (c) =>
          this.connections.filter((o) => o.openedAt <= c.openedAt && (o.closedAt ?? Infinity) > c.openedAt)
            .length,
      ),
    );
  }

  /** The connection open now (the last one, if it is still open). */
  get current(): FakeConnection | undefined {
    const last = this.connections[this.connections.length - 1];
    return last && last.closedAt === undefined ? last : undefined;
  }

  /** Sends one post to the open connection, with the rules it matched. */
  deliver(post: object, matching: FakeRule[], includes?: object): void {
    const line = {
      data: post,
      ...(includes && { includes }),
      matching_rules: matching.map((r) => ({ id: r.id, ...(r.tag && { tag: r.tag }) })),
    };
    this.#need().write(`${JSON.stringify(line)}\r\n`);
  }

  /** A keep-alive heartbeat. */
  heartbeat(): void {
    this.#need().write('\r\n');
  }

  /** The rule of ours whose tag starts with `prefix`. */
  ruleTagged(prefix: string): FakeRule {
    const rule = this.rules.find((r) => r.tag?.startsWith(prefix));
    expect(rule, `a rule tagged ${prefix}…`).toBeDefined();
    return rule as FakeRule;
  }

  #need(): FakeConnection {
    const c = this.current;
    if (!c) throw new Error('no open stream connection');
    return c;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const check = xFacts.check(new Request(url, { method: req.method ?? 'GET', headers }));
    const json = (status: number, body: unknown, extra: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...extra }).end(JSON.stringify(body));
    if (check.problems.length > 0) return void json(400, invalidRequest(check.problems.join('; ')));
    if (headers.get('authorization') !== `Bearer ${TOKEN}`) return void json(401, unauthorized);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (url.pathname === '/2/tweets/search/stream') return this.#connect(url, res);
    if (url.pathname === '/2/tweets/search/stream/rules/counts') {
      return void json(200, {
        data: {
          cap_per_client_app: String(this.cap),
          cap_per_project: String(this.cap),
          project_rules_count: String(this.rules.length),
          client_app_rules_count: { rule_count: this.rules.length },
        },
      });
    }
    if (req.method === 'GET') {
      this.ruleCalls.push({ method: 'GET', dryRun: false });
      return void json(200, {
        ...(this.rules.length > 0 && { data: this.rules.map((r) => ({ ...r })) }),
        meta: { sent: new Date().toISOString(), result_count: this.rules.length },
      });
    }
    return void json(200, this.#update(url, JSON.parse(text) as RulesBody));
  }

  #connect(url: URL, res: ServerResponse): void {
    this.attempts.push(Date.now());
    const refusal = this.refusals.shift();
    if (refusal) {
      res
        .writeHead(refusal.status, { 'content-type': 'application/json', ...refusal.headers })
        .end(JSON.stringify({ title: refusal.status === 429 ? 'TooManyConnections' : 'Unavailable' }));
      return;
    }
    const conn: FakeConnection = {
      openedAt: Date.now(),
      url,
      write: (text) => res.write(text),
      end: () => res.destroy(),
    };
    res.on('close', () => {
      conn.closedAt ??= Date.now();
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    this.connections.push(conn);
  }

  #update(url: URL, body: RulesBody) {
    const dryRun = url.searchParams.get('dry_run') === 'true';
    this.ruleCalls.push({ method: 'POST', dryRun, body });
    // X takes exactly one of `add` and `delete`.
    expect(Number(body.add !== undefined) + Number(body.delete !== undefined)).toBe(1);
    const sent = new Date().toISOString();
    if (body.delete) {
      const before = this.rules.length;
      this.rules = this.rules.filter((r) => !body.delete?.ids.includes(r.id));
      return { meta: { sent, summary: { deleted: before - this.rules.length, not_deleted: 0 } } };
    }
    const created: FakeRule[] = [];
    const errors: object[] = [];
    for (const r of body.add ?? []) {
      expect(typeof r.value).toBe('string');
      const problem = this.invalid(r.value);
      const same = this.rules.find((x) => x.value === r.value);
      if (problem) {
        errors.push({
          value: r.value,
          details: [problem],
          title: 'Invalid Rule',
          type: 'https://api.twitter.com/2/problems/invalid-rules',
        });
      } else if (same) {
        errors.push({
          value: r.value,
          id: same.id,
          title: 'DuplicateRule',
          type: 'https://api.twitter.com/2/problems/duplicate-rules',
        });
      } else {
        created.push({ id: String(this.#nextId++), value: r.value, ...(r.tag && { tag: r.tag }) });
      }
    }
    if (!dryRun) this.rules.push(...created);
    return {
      ...(created.length > 0 && { data: created }),
      meta: {
        sent,
        summary: {
          created: dryRun ? 0 : created.length,
          not_created: errors.length,
          valid: created.length,
          invalid: errors.length,
        },
      },
      ...(errors.length > 0 && { errors }),
    };
  }
}

/** Resolves when `condition()` holds (polled every 5 ms), fails after `ms`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  ms = 5_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
