// Times cold starts of commands, spawned from this small plain-Node process rather than from the benchmark
// runner (tsx, with its loader and a larger heap), whose own spawn overhead added about 20 ms to every
// figure alike, the floor included. Usage: node cold-start-runner.mjs <rounds> '<[[name, what], …]>', where
// `what` is the arguments of a `node` command, or `{ "get": url, "headers": {…} }` for one HTTP GET on a
// fresh connection from here (the request's own time, without any process start).
// Prints { "<name>": [ms, …] } as JSON; rounds are interleaved so machine load colours every case alike.
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';

const rounds = Number(process.argv[2]);
const cases = JSON.parse(process.argv[3]);
const env = { ...process.env, NO_COLOR: '1' };
delete env.NODE_OPTIONS;

function get({ get: url, headers }) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`GET ${url} answered ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function once(what) {
  const t = performance.now();
  if (!Array.isArray(what)) {
    await get(what);
    return performance.now() - t;
  }
  const r = spawnSync(process.execPath, what, { stdio: ['ignore', 'ignore', 'pipe'], env });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${what.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

for (const [, what] of cases) await once(what); // warm the file system cache
const times = Object.fromEntries(cases.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  for (const [name, what] of cases) times[name].push(await once(what));
}
process.stdout.write(JSON.stringify(times));
