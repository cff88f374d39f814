/**
 * One server instance of `deliveries-pg.bench.ts`, in a process of its own (plain JavaScript on the built
 * `@xsvc/server`, so it needs no TypeScript loader): the real server on the Postgres database named by
 * argv[2], with the lease owner argv[3] (`instanceId`, as `XSVC_INSTANCE_ID` sets it), listening on a free
 * loopback port, which starts its engines as `xsvc-server` does. It answers the parent's requests over IPC:
 * `stats` (deliveries made, this process's CPU and event-loop counters), `pause` / `resume` (stop and start
 * the webhook delivery engine), `profile-start` / `profile-stop` (a V8 CPU profile written to a file) and
 * `close`.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { createServer, deliveryEngineFor, parseConfig } from '@xsvc/server';

const [databaseUrl, instanceId] = process.argv.slice(2);
const server = await createServer(
  parseConfig({
    databaseUrl,
    instanceId,
    seedSize: 'tiny',
    logLevel: 'silent',
    keyFile: '',
    allowLoopbackWebhooks: true,
  }),
);
const engine = deliveryEngineFor(server.services.database);
if (!engine) throw new Error('the webhooks feature is not mounted');
await server.app.listen({ port: 0, host: '127.0.0.1' });

/** @type {Session | undefined} */
let session;

/** @param {{ id: number, type: string, file?: string }} m */
async function handle(m) {
  switch (m.type) {
    case 'stats':
      return {
        delivered: engine.stats.delivered,
        attempts: engine.stats.attempts,
        cpu: process.cpuUsage(),
        elu: performance.eventLoopUtilization(),
      };
    case 'pause':
      await engine.stop();
      return {};
    case 'resume':
      await engine.start();
      return {};
    case 'profile-start':
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
      return {};
    case 'profile-stop': {
      if (!session) return {};
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      session = undefined;
      if (m.file) writeFileSync(m.file, JSON.stringify(profile));
      return {};
    }
    case 'close':
      await server.close();
      setImmediate(() => process.exit(0));
      return {};
    default:
      throw new Error(`unknown request ${m.type}`);
  }
}

process.on('message', (m) => {
  handle(m).then(
    (reply) => process.send?.({ id: m.id, ...reply }),
    (err) => process.send?.({ id: m.id, error: String(err?.stack ?? err) }),
  );
});
// The bench died or let go of this process: nothing is left to serve.
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true, pid: process.pid });
