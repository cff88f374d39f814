// Times cold starts of commands, spawned from this small plain-Node process rather than from the benchmark
// runner (tsx, with its loader and a larger heap), whose own spawn overhead added about 20 ms to every
// figure alike, the floor included. Usage: node cold-start-runner.mjs <rounds> '<[[name, [args…]], …]>'.
// Prints { "<name>": [ms, …] } as JSON; rounds are interleaved so machine load colours every case alike.
import { spawnSync } from 'node:child_process';

const rounds = Number(process.argv[2]);
const cases = JSON.parse(process.argv[3]);
const env = { ...process.env, NO_COLOR: '1' };
delete env.NODE_OPTIONS;

function once(args) {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

for (const [, args] of cases) once(args); // warm the file system cache
const times = Object.fromEntries(cases.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  for (const [name, args] of cases) times[name].push(once(args));
}
process.stdout.write(JSON.stringify(times));
