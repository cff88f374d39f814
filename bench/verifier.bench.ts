/**
 * Webhook verification throughput, 1 KiB JSON body, all measured in this one run against the BUILT package
 * (`pnpm --filter @xsvc/webhook-verifier build` first):
 *   floors  the least work any correct hand-written verifier does per delivery: read the three headers,
 *           HMAC over `<ts>.<nonce>.` + body, decode the signature hex, a length check, a constant-time
 *           compare and JSON.parse (no format, timestamp or nonce checks at all); node:crypto for the Node
 *           floor, Web Crypto with the key imported once for the Web floor. An extra row also shows the bare
 *           HMAC core with the prefix and signature bytes precomputed outside the loop, for reference;
 *   ours    the Node build (sync, sync with the default memory nonce store, async) and the Web build, each
 *           also parsing the headers, decoding the hex, checking formats and the timestamp;
 *   peers   standardwebhooks `Webhook.verify` and @octokit/webhooks-methods `verify`.
 * Goal: each build (Node sync and async, Web) reaches at least 90% of its floor's verifications per second
 * doing the same work (no nonce store). The default-memory-store row is measured against the same floor fed
 * distinct deliveries and reported as INFO: it also remembers every nonce, which the floor does not do.
 * Method: each goal's candidate in a child process of its own beside its floor (see `groups`): warm-up, then
 * 80 interleaved rounds of ~20 ms per candidate. Each batch is timed by the wall clock and by the process's
 * CPU time (`process.cpuUsage`, which also counts the thread pool Web Crypto runs on).
 * On a shared machine other tenants swing wall-clock figures by 2x from one second to the next, and even CPU
 * time by ±15%. The goal takes the median ratio of paired rounds (the candidate's batch against its floor's,
 * measured moments apart); each candidate's best round by CPU time (the least disturbed one, as `timeit`
 * does) is printed beside it. Best against best was the goal's figure before: it held for the Node builds
 * once each ran apart, but not for the Web build, whose HMAC runs on the thread pool: one lucky 20 ms batch
 * of either side set it, at 74% to 374% of the floor over eight runs while the paired median read 94-99%.
 */
import { spawnSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods';
import * as node from '@xsvc/webhook-verifier/node';
import * as web from '@xsvc/webhook-verifier/web';
import { Webhook } from 'standardwebhooks';
import { goal, median, table } from './src/stats.js';

const SECRET = 'whsec_3f9a1c0e7b5d4a2f8e6c1b0a9d8f7e6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e';
const ROUNDS = 80;
const ROUND_MS = 20;

function kibBody(): Buffer {
  const head = JSON.stringify({
    eventType: 'tweet.new',
    schemaVersion: 1,
    deliveryId: 'dlv_01JT0000000000000000000000',
    streamEventId: 'evt_01JT0000000000000000000000',
    occurredAt: '2026-04-29T12:00:00.000Z',
    username: 'xsvc',
    data: { id: '1790000000000000001', author: { id: '42', userName: 'xsvc', name: 'X Svc' }, text: '' },
  });
  const padded = `${head.slice(0, -3)}${'x'.repeat(1024 - head.length)}"}}`;
  const body = Buffer.from(padded, 'utf8');
  if (body.length !== 1024) throw new Error(`body is ${body.length} bytes`);
  JSON.parse(padded);
  return body;
}

const body = kibBody();
const bodyText = body.toString('utf8');

/** Headers as Node hands them to a receiver: lower-case names, with the usual neighbours. */
function nodeHeaders(signature: web.WebhookSignatureHeaders): Record<string, string> {
  return {
    host: 'receiver.example',
    'user-agent': 'xquik-webhooks/1.0',
    'content-type': 'application/json',
    'content-length': String(body.length),
    'x-svc-timestamp': signature['X-Svc-Timestamp'],
    'x-svc-nonce': signature['X-Svc-Nonce'],
    'x-svc-signature': signature['X-Svc-Signature'],
  };
}

const one = node.signWebhookSync({ secret: SECRET, payload: body });
const headers = nodeHeaders(one);
const sigBytes = Buffer.from(one['X-Svc-Signature'].slice(7), 'hex');
const prefix = `${one['X-Svc-Timestamp']}.${one['X-Svc-Nonce']}.`;

// Fresh signed headers for the default-store variant, made (untimed) just before each of its batches, so
// no call in the measured loop is a replay and the heap holds only one batch of them at a time.
let distinct: Record<string, string>[] = [];
let next = 0;
function presign(n: number): void {
  distinct = [];
  for (let i = 0; i < n; i++)
    distinct.push(nodeHeaders(node.signWebhookSync({ secret: SECRET, payload: body })));
  next = 0;
  // Two young-generation collections move them to the old generation now, so the timed batch does not pay
  // for copying them around (the cost of the bench's set-up, not of the verifier).
  const gc = (globalThis as { gc?: (options?: { type: 'minor' }) => void }).gc;
  gc?.({ type: 'minor' });
  gc?.({ type: 'minor' });
}

const webKey = await crypto.subtle.importKey(
  'raw',
  new TextEncoder().encode(SECRET),
  { name: 'HMAC', hash: 'SHA-256' },
  false,
  ['verify'],
);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const svixSecret = `whsec_${Buffer.from(SECRET).toString('base64')}`;
const svix = new Webhook(svixSecret);
const svixHeaders = {
  'webhook-id': 'msg_1',
  'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
  'webhook-signature': svix.sign('msg_1', new Date(), body),
};
const octokitSignature = await octokitSign(SECRET, bodyText);

type Candidate = {
  name: string;
  /** The floor this row is compared with; `undefined` for a floor itself. */
  floor: 'node' | 'node-distinct' | 'web' | undefined;
  goal: boolean;
  /** Untimed set-up before each batch of `n` calls. */
  prepare?: (n: number) => void;
  sync?: () => unknown;
  async?: () => Promise<unknown>;
};

/** The three header values, read per call as every receiver must. */
function read(h: Record<string, string>): [string, string, string] {
  return [h['x-svc-timestamp']!, h['x-svc-nonce']!, h['x-svc-signature']!];
}

const nodeFloor: Candidate = {
  name: 'Node floor: createHmac + length check + timingSafeEqual + JSON.parse',
  floor: undefined,
  goal: false,
  sync: () => {
    const [ts, nonce, sig] = read(headers);
    const mac = createHmac('sha256', SECRET).update(`${ts}.${nonce}.`).update(body).digest();
    const expected = Buffer.from(sig.slice(7), 'hex');
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) throw new Error('mismatch');
    return JSON.parse(body.toString('utf8'));
  },
};
// The same floor fed a different delivery (fresh strings, as from the network) on every call: the fair
// reference for the replay-protected variant, which must see a new nonce each time.
const nodeFloorDistinct: Candidate = {
  ...nodeFloor,
  name: 'Node floor, a distinct delivery per call',
  prepare: presign,
  sync: () => {
    const [ts, nonce, sig] = read(distinct[next++]!);
    const mac = createHmac('sha256', SECRET).update(`${ts}.${nonce}.`).update(body).digest();
    const expected = Buffer.from(sig.slice(7), 'hex');
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) throw new Error('mismatch');
    return JSON.parse(body.toString('utf8'));
  },
};
const webFloor: Candidate = {
  name: 'Web floor: subtle.verify (key imported once) + JSON.parse',
  floor: undefined,
  goal: false,
  async: async () => {
    const [ts, nonce, sig] = read(headers);
    const prefix = `${ts}.${nonce}.`;
    const data = new Uint8Array(prefix.length + body.length);
    encoder.encodeInto(prefix, data);
    data.set(body, prefix.length);
    const expected = Buffer.from(sig.slice(7), 'hex');
    if (!(await crypto.subtle.verify('HMAC', webKey, expected, data))) throw new Error('mismatch');
    return JSON.parse(decoder.decode(body));
  },
};

const candidates: Candidate[] = [
  nodeFloor,
  {
    name: '(info) Node HMAC core only, prefix and signature bytes precomputed',
    floor: 'node',
    goal: false,
    sync: () => {
      const mac = createHmac('sha256', SECRET).update(prefix).update(body).digest();
      if (mac.length !== sigBytes.length || !timingSafeEqual(mac, sigBytes)) throw new Error('mismatch');
      return JSON.parse(body.toString('utf8'));
    },
  },
  {
    name: 'ours: Node verifyWebhookSync, nonceStore false',
    floor: 'node',
    goal: true,
    sync: () => node.verifyWebhookSync({ payload: body, headers, secret: SECRET, nonceStore: false }),
  },
  nodeFloorDistinct,
  {
    name: 'ours: Node verifyWebhookSync, default memory store, distinct deliveries',
    floor: 'node-distinct',
    // Informational: this variant also does replay protection (a map insert and an eviction per delivery),
    // which the floor does not do at all, so it is reported against the floor but not held to the goal.
    goal: false,
    prepare: presign,
    sync: () => node.verifyWebhookSync({ payload: body, headers: distinct[next++]!, secret: SECRET }),
  },
  {
    name: 'ours: Node verifyWebhook (async), nonceStore false',
    floor: 'node',
    goal: true,
    async: () => node.verifyWebhook({ payload: body, headers, secret: SECRET, nonceStore: false }),
  },
  {
    name: 'standardwebhooks Webhook.verify',
    floor: 'node',
    goal: false,
    sync: () => svix.verify(body, svixHeaders),
  },
  {
    name: '@octokit/webhooks-methods verify (no JSON.parse)',
    floor: 'node',
    goal: false,
    async: async () => {
      if (!(await octokitVerify(SECRET, bodyText, octokitSignature))) throw new Error('mismatch');
    },
  },
  webFloor,
  {
    name: 'ours: Web verifyWebhook, nonceStore false',
    floor: 'web',
    goal: true,
    async: () => web.verifyWebhook({ payload: body, headers, secret: SECRET, nonceStore: false }),
  },
];

type Sample = { wall: number; cpu: number };

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Runs `n` calls; returns calls per second of wall-clock time and of process CPU time. */
async function batch(c: Candidate, n: number): Promise<Sample> {
  c.prepare?.(n);
  const wall0 = performance.now();
  const cpu0 = cpuMs();
  if (c.sync !== undefined) {
    const f = c.sync;
    for (let i = 0; i < n; i++) f();
  } else {
    const f = c.async!;
    for (let i = 0; i < n; i++) await f();
  }
  const cpu = cpuMs() - cpu0;
  const wall = performance.now() - wall0;
  return { wall: n / (wall / 1000), cpu: n / (Math.max(cpu, 0.001) / 1000) };
}

const floors = { node: nodeFloor, 'node-distinct': nodeFloorDistinct, web: webFloor } as const;
const floorOf = (c: Candidate) => (c.floor === undefined ? c : floors[c.floor]);

/**
 * The processes the candidates are measured in: each goal's candidate, and the replay-protected one, alone
 * beside its floor; the rows for information together beside the Node floor. Interleaved all in one
 * process, the candidates billed each other's garbage and JIT changes: the async verifier read 0.70-0.75
 * of its floor in three runs of four, and the sync one, once the others moved, 0.78, where each measured
 * alone with its floor read 0.94-0.98 run after run.
 */
const measured = candidates.filter((c) => c.floor !== undefined);
const groups: Candidate[][] = [
  ...measured.filter((c) => c.goal || c.prepare !== undefined).map((c) => [floorOf(c), c]),
  [nodeFloor, ...measured.filter((c) => !c.goal && c.prepare === undefined)],
];

/** One group's interleaved rounds, in this process: each candidate's samples, in the group's order. */
async function measureGroup(group: readonly Candidate[]): Promise<Sample[][]> {
  // Every candidate must verify for real before it is timed.
  for (const c of group) {
    c.prepare?.(1);
    await (c.sync ?? c.async!)();
  }
  // Calibrate: the batch size that takes about ROUND_MS, after a warm-up of a few batches.
  const sizes = new Map<Candidate, number>();
  for (const c of group) {
    let n = 200;
    for (let i = 0; i < 4; i++) n = Math.max(200, Math.round(((await batch(c, n)).wall * ROUND_MS) / 1000));
    sizes.set(c, n);
  }
  // One full collection before measuring, none between batches: a forced GC leaves concurrent sweeping
  // behind, which would be billed to whichever batch runs next.
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const samples = group.map((): Sample[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, c] of group.entries()) samples[k]!.push(await batch(c, sizes.get(c)!));
  }
  return samples;
}

const GROUP_ENV = 'XSVC_VERIFIER_BENCH_GROUP';
const asked = process.env[GROUP_ENV];
if (asked !== undefined) {
  // A child: measure the one group and hand its samples back on stdout.
  process.stdout.write(JSON.stringify(await measureGroup(groups[Number(asked)]!)));
} else {
  report(
    groups.map((group, g) => {
      const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
        env: { ...process.env, [GROUP_ENV]: String(g) },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 1 << 24,
      });
      if (child.status !== 0) throw new Error(`group ${g} (${group[1]?.name}) exited with ${child.status}`);
      return JSON.parse(child.stdout) as Sample[][];
    }),
  );
}

/** The table and the goals, from each group's samples (a candidate against the floor of its own process). */
function report(results: readonly Sample[][][]): void {
  const rows: { c: Candidate; samples: Sample[]; floor: Sample[] }[] = [];
  for (const [g, group] of groups.entries()) {
    const floor = results[g]![0]!;
    for (const [k, c] of group.entries()) rows.push({ c, samples: results[g]![k]!, floor });
  }
  const best = (xs: Sample[]) => Math.max(...xs.map((x) => x.cpu));
  const bestRatio = (r: (typeof rows)[number]) => best(r.samples) / best(r.floor);
  const pairedRatio = (r: (typeof rows)[number]) => median(r.samples.map((x, i) => x.cpu / r.floor[i]!.cpu));
  const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
  console.log(
    `\nVerifications per second, 1 KiB JSON body (${ROUNDS} interleaved rounds of ~${ROUND_MS} ms; each goal's candidate in a process of its own, beside its floor)`,
  );
  table([
    ['verifier', 'ops/s best (CPU)', 'ops/s median (wall)', 'vs floor, best', 'vs floor, paired median'],
    ...rows.map((r) => [
      r.c.floor === undefined ? `${r.c.name} (floor of the rows below it)` : r.c.name,
      fmt(best(r.samples)),
      fmt(median(r.samples.map((x) => x.wall))),
      r.c.floor === undefined ? 'floor' : `${bestRatio(r).toFixed(2)} of ${r.c.floor}`,
      r.c.floor === undefined ? 'floor' : pairedRatio(r).toFixed(2),
    ]),
  ]);
  const floorRow = (f: Candidate) => rows.find((r) => r.c === f) as (typeof rows)[number];
  console.log(
    `Node floor / Web floor: ${(best(floorRow(nodeFloor).samples) / best(floorRow(webFloor).samples)).toFixed(2)}x`,
  );
  for (const r of rows.filter((x) => x.c.name.includes('default memory store'))) {
    const extra = 1e6 / best(r.samples) - 1e6 / best(r.floor);
    console.log(
      `INFO: ${r.c.name}: ${(bestRatio(r) * 100).toFixed(1)}% of a floor that keeps no nonces ` +
        `(replay protection costs ${extra.toFixed(2)} µs of CPU per delivery)`,
    );
  }
  let ok = true;
  for (const r of rows.filter((x) => x.c.goal)) {
    const ratio = pairedRatio(r);
    const detail = `${(ratio * 100).toFixed(1)}%, paired median (best against best ${(bestRatio(r) * 100).toFixed(1)}%)`;
    ok = goal(`${r.c.name} >= 90% of the ${r.c.floor} floor`, ratio >= 0.9, detail) && ok;
  }
  if (!ok) process.exitCode = 1;
}
