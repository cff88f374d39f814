/**
 * SDK benchmarks, all measured in this one run:
 * 1. per-call overhead of `client.tweets.get` against a raw `fetch` + `res.json()` to the same local server,
 *    with the same fetch under a deadline (abort signal and timer) printed beside as the SDK's floor
 *    (goal <= 1.15x the raw time), and openai-node and ky calling the same route on the same server as peers
 *    (goal: faster than both);
 * 2. min+gzip size of the root entry, beside openai, stripe and twitter-api-v2 bundled the same way
 *    (goal: smaller than all three and under 15 KB);
 * 3. cold import time in a fresh process, same peers (goal: faster than all three and under 20 ms).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Xsvc } from '@xsvc/sdk';
import { build } from 'esbuild';
import ky from 'ky';
import OpenAI from 'openai';
import { goal, median, table } from './src/stats.js';

const BODY = JSON.stringify({
  tweet: {
    id: '1790000000000000001',
    text: 'hello world',
    createdAt: '2026-04-29T12:00:00.000Z',
    likeCount: 3,
  },
});

async function overhead(): Promise<number> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) });
    res.end(BODY);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = `svc_${'0'.repeat(64)}`;
  const url = `${base}/api/v1/x/tweets/1790000000000000001`;
  const headers = { 'x-api-key': key, accept: 'application/json' };
  const client = new Xsvc({ apiKey: key, baseUrl: base });
  const raw = async () => (await fetch(url, { headers })).json();
  // The same fetch with a deadline (an abort signal and its timer): what any call that can time out pays.
  // The SDK keeps every call inside its deadline this way, so this is its floor.
  const withDeadline = async () => {
    const timer = new AbortController();
    const t = setTimeout(() => timer.abort(), 60_000);
    try {
      return await (await fetch(url, { headers, signal: timer.signal })).json();
    } finally {
      clearTimeout(t);
    }
  };
  const sdk = () => client.tweets.get('1790000000000000001');
  // The peers, each as its users would call one JSON route of a service: their own retries and timeouts left
  // at their defaults, the same key and accept headers.
  const openai = new OpenAI({ apiKey: key, baseURL: `${base}/api/v1`, defaultHeaders: { 'x-api-key': key } });
  const viaOpenai = () => openai.get('/x/tweets/1790000000000000001');
  const kyClient = ky.create({ prefixUrl: `${base}/api/v1`, headers });
  const viaKy = () => kyClient.get('x/tweets/1790000000000000001').json();
  const N = 1_000;
  // Each batch's wall time per call (the goals), and the process's CPU time per call beside it (client and
  // server both run here), printed for information: on a loaded machine it drifts less than the wall clock.
  const cpu: number[][] = [];
  const run = async (f: () => Promise<unknown>, into?: number[]) => {
    const c = process.cpuUsage();
    const t = performance.now();
    for (let i = 0; i < N; i++) await f();
    const wall = (performance.now() - t) / N;
    const used = process.cpuUsage(c);
    into?.push((used.user + used.system) / 1000 / N);
    return wall;
  };
  const clients: [string, () => Promise<unknown>][] = [
    ['raw fetch + json', raw],
    ['raw fetch + json, with a deadline', withDeadline],
    ['@xsvc/sdk tweets.get', sdk],
    [`openai ${packageVersion('openai')} client.get`, viaOpenai],
    [`ky ${packageVersion('ky')} get().json()`, viaKy],
  ];
  for (const [, f] of clients) await run(f);
  // Rounds alternate the clients, in an order that turns each round (so that none always follows the same
  // one); each round's ratio is taken within the round (the machine's load drifts between rounds), and the
  // goals are the medians of those ratios.
  const ROUNDS = 21;
  const times = clients.map((): number[] => []);
  for (const _ of clients) cpu.push([]);
  for (let round = 0; round < ROUNDS; round++) {
    for (let j = 0; j < clients.length; j++) {
      const i = (round + j) % clients.length;
      times[i]!.push(await run(clients[i]![1], cpu[i]));
    }
  }
  server.close();
  const rawT = times[0]!;
  const ratio = (xs: number[]) => median(xs.map((x, i) => x / rawT[i]!));
  const ratios = times.map(ratio);
  console.log(
    `\nPer-call time, sequential GET to a local server (${ROUNDS} rounds of ${N.toLocaleString('en')} calls; median, and median ratio)`,
  );
  const cpuRatio = (xs: number[]) => median(xs.map((x, i) => x / cpu[0]![i]!));
  table([
    ['client', 'µs/call', 'ratio', 'INFO: CPU µs/call', 'CPU ratio'],
    ...clients.map(([name], i) => [
      name,
      (median(times[i]!) * 1000).toFixed(1),
      ratios[i]!.toFixed(2),
      (median(cpu[i]!) * 1000).toFixed(1),
      cpuRatio(cpu[i]!).toFixed(2),
    ]),
  ]);
  // Against each peer, the median of the per-round ratios of the SDK's time to the peer's.
  const versus = (i: number) => median(times[2]!.map((x, r) => x / times[i]![r]!));
  const s = ratios[2]!;
  goal('SDK per-call time <= 1.15x raw fetch', s <= 1.15, `${s.toFixed(2)}x`);
  const vOpenai = versus(3);
  const vKy = versus(4);
  goal('SDK faster than openai-node on the same route', vOpenai < 1, `${vOpenai.toFixed(2)}x its time`);
  goal('SDK faster than ky on the same route', vKy < 1, `${vKy.toFixed(2)}x its time`);
  return s;
}

/** The installed version of a peer, for the table. */
function packageVersion(name: string): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve(name));
  // The package's own package.json (its `exports` may not list it): the first one up from its entry.
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === name && pkg.version) return pkg.version;
    } catch {}
    const up = dirname(dir);
    if (up === dir) return '';
    dir = up;
  }
}

async function size(entry: string, external: string[] = []): Promise<number> {
  const r = await build({
    external,
    stdin: { contents: `export * from '${entry}';`, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
  });
  return gzipSync(r.outputFiles[0]!.contents, { level: 9 }).length;
}

function importMs(entry: string): number {
  const runs: number[] = [];
  for (let i = 0; i < 7; i++) {
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const t=performance.now();await import('${entry}');console.log(performance.now()-t)`,
      ],
      { cwd: process.cwd(), encoding: 'utf8' },
    );
    runs.push(Number(out.trim()));
  }
  return median(runs);
}

async function sizes(): Promise<void> {
  const peers = ['@xsvc/sdk', 'openai', 'stripe', 'twitter-api-v2'];
  const rows: (string | number)[][] = [['package', 'min+gzip KB', 'cold import ms']];
  const figures: Record<string, { kb: number; ms: number }> = {};
  for (const p of peers) {
    // The SDK's root entry loads the webhook verifier lazily (on the first `webhooks.verify`): the root
    // entry is measured without it, and the figure with it is printed beside for comparison.
    const kb = (await size(p, p === '@xsvc/sdk' ? ['@xsvc/webhook-verifier'] : [])) / 1024;
    const ms = importMs(p);
    figures[p] = { kb, ms };
    rows.push([p, kb.toFixed(1), ms.toFixed(1)]);
    if (p === '@xsvc/sdk')
      rows.push(['  + verifier, loaded on first verify', ((await size(p)) / 1024).toFixed(1), '']);
  }
  console.log(
    '\nBundle size (esbuild, platform node, minified, gzip -9) and cold import (median of 7 fresh processes)',
  );
  table(rows);
  const ours = figures['@xsvc/sdk']!;
  const others = peers.slice(1).map((p) => figures[p]!);
  goal(
    'smaller than openai, stripe and twitter-api-v2',
    others.every((o) => ours.kb < o.kb),
    `${ours.kb.toFixed(1)} KB`,
  );
  goal('root entry under 15 KB min+gzip', ours.kb < 15, `${ours.kb.toFixed(1)} KB`);
  goal(
    'imports faster than all three',
    others.every((o) => ours.ms < o.ms),
    `${ours.ms.toFixed(1)} ms`,
  );
  goal('cold import under 20 ms', ours.ms < 20, `${ours.ms.toFixed(1)} ms`);
}

await overhead();
await sizes();
