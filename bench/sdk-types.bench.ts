/**
 * SDK type cost, measured in this one run beside openai for the same 25-line app (issue 15):
 * 1. `tsc --extendedDiagnostics` on each app, strict settings, median of 3 runs: type instantiations
 *    (goal <= 5,000), memory and check time (goal <= 3x openai's);
 * 2. declarations an app loads for `@xsvc/sdk` (the root entry's `.d.ts`/`.d.cts` and what they import):
 *    goal <= 300 KB, shipped once (the ESM entry re-exports the CommonJS declarations).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goal, median, table } from './src/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** The same small app twice: a client from the environment, a listing walked, a create, errors handled. */
const APPS: Record<string, string> = {
  '@xsvc/sdk': `import { isErrorWithCode, Xsvc, type Monitor, type SearchTweetsParams } from '@xsvc/sdk';

const client = new Xsvc({ apiKey: process.env['XSVC_API_KEY'] });

export async function main(): Promise<Monitor | undefined> {
  const query: SearchTweetsParams = { q: 'from:jack', queryType: 'Latest', minFaves: 10 };
  for await (const tweet of client.tweets.search(query)) {
    console.log(tweet.id, tweet.text, tweet.likeCount);
  }
  const page = await client.users.followers('jack');
  for (const user of page.items) console.log(user.username);
  const account = await client.account.get();
  console.log(account.plan, account.creditInfo?.balance);
  try {
    return await client.monitors.create({ username: 'jack', eventTypes: ['tweet.new'] });
  } catch (err) {
    if (isErrorWithCode(err, 'monitor_already_exists')) return undefined;
    throw err;
  }
}

export async function events(): Promise<number> {
  let n = 0;
  for await (const event of client.events.list({ eventType: 'tweet.new' })) n += event.id.length;
  return n;
}
`,
  openai: `import OpenAI from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';

const client = new OpenAI({ apiKey: process.env['OPENAI_API_KEY'] });

export async function main(): Promise<ChatCompletion | undefined> {
  const params: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = { model: 'gpt-4o', messages: [] };
  for await (const model of client.models.list()) {
    console.log(model.id, model.created, model.owned_by);
  }
  const page = await client.files.list();
  for (const file of page.data) console.log(file.filename);
  const batch = await client.batches.list();
  console.log(batch.data.length, batch.hasNextPage());
  try {
    return await client.chat.completions.create({ ...params, messages: [{ role: 'user', content: 'hi' }] });
  } catch (err) {
    if (err instanceof OpenAI.APIError && err.status === 404) return undefined;
    throw err;
  }
}

export async function events(): Promise<number> {
  let n = 0;
  for await (const job of client.fineTuning.jobs.list({ limit: 10 })) n += job.id.length;
  return n;
}
`,
};

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noPropertyAccessFromIndexSignature: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  },
  files: ['app.ts'],
};

interface Figures {
  instantiations: number;
  memoryMb: number;
  checkS: number;
  totalS: number;
}

function diagnostics(dir: string): Figures {
  const tsc = require.resolve('typescript/bin/tsc');
  let out: string;
  try {
    out = execFileSync(process.execPath, [tsc, '-p', dir, '--extendedDiagnostics'], { encoding: 'utf8' });
  } catch (e) {
    throw new Error(`the app does not compile:\n${(e as { stdout?: string }).stdout ?? e}`);
  }
  const num = (label: string) => {
    const m = new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(out);
    if (!m) throw new Error(`no ${label} in tsc output`);
    return Number(m[1]);
  };
  return {
    instantiations: num('Instantiations'),
    memoryMb: num('Memory used') / 1024,
    checkS: num('Check time'),
    totalS: num('Total time'),
  };
}

function measure(name: string): Figures {
  const dir = join(here, `.types-app-${process.pid}-${name.replace(/\W/g, '')}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, 'app.ts'), APPS[name]!);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const runs = [0, 1, 2].map(() => diagnostics(dir));
    return {
      instantiations: median(runs.map((r) => r.instantiations)),
      memoryMb: median(runs.map((r) => r.memoryMb)),
      checkS: median(runs.map((r) => r.checkS)),
      totalS: median(runs.map((r) => r.totalS)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Bytes of a declaration file and every declaration file it imports relatively, each counted once. */
function declarationBytes(entries: string[]): number {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/from '(\.\/[^']+)'/g)) {
      const spec = m[1]!;
      visit(join(dirname(file), spec.replace(/\.cjs$/, '.d.cts').replace(/\.js$/, '.d.ts')));
    }
  };
  for (const e of entries) visit(e);
  return [...seen].reduce((n, f) => n + statSync(f).size, 0);
}

const ours = measure('@xsvc/sdk');
const peer = measure('openai');
console.log('\nType-checking the same 25-line app (tsc --extendedDiagnostics, strict, median of 3 runs)');
table([
  ['package', 'instantiations', 'memory MB', 'check s', 'total s', 'check ratio'],
  ...(
    [
      ['@xsvc/sdk', ours],
      ['openai', peer],
    ] as const
  ).map(([n, f]) => [
    n,
    f.instantiations,
    f.memoryMb.toFixed(0),
    f.checkS.toFixed(2),
    f.totalS.toFixed(2),
    (f.checkS / peer.checkS).toFixed(2),
  ]),
]);
goal('at most 5,000 type instantiations', ours.instantiations <= 5000, `${ours.instantiations}`);
// Check times under 0.05 s are within the timer's noise: the ratio is compared with that floor.
const ratio = Math.max(ours.checkS, 0.05) / Math.max(peer.checkS, 0.05);
goal("check time at most 3x openai's", ratio <= 3, `${ratio.toFixed(2)}x`);

const dist = join(dirname(require.resolve('@xsvc/sdk/package.json')), 'dist');
const bytes = declarationBytes([join(dist, 'index.d.ts'), join(dist, 'index.d.cts')]);
console.log(
  `\nDeclarations of the root entry (import and require together): ${(bytes / 1024).toFixed(1)} KB`,
);
goal('declarations at most 300 KB, shipped once', bytes <= 300 * 1024, `${(bytes / 1024).toFixed(1)} KB`);
const all = readdirSync(dist)
  .filter((f) => /\.d\.c?ts$/.test(f))
  .reduce((n, f) => n + statSync(join(dist, f)).size, 0);
console.log(
  `All declarations of the package (root, contract, testing, draws): ${(all / 1024).toFixed(1)} KB`,
);
