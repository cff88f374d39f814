import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { resolveLogFormat } from '../../src/app/logging.js';
import { createServer } from '../../src/app/server.js';
import { ManualClock } from '../../src/core/clock.js';
import { ConfigError, configFromEnv, parseConfig } from '../../src/core/config.js';
import { openDatabase } from '../../src/core/db/database.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { SimulatedPlatform } from '../../src/platform/simulated/index.js';

describe('LOG_FORMAT', () => {
  it('is auto by default, and json or pretty when said; anything else is refused', () => {
    expect(configFromEnv({}).logFormat).toBe('auto');
    expect(configFromEnv({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(configFromEnv({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => configFromEnv({ LOG_FORMAT: 'yaml' })).toThrow(ConfigError);
    expect(() => configFromEnv({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT/);
  });

  it('auto is pretty on a terminal and JSON anywhere else; an explicit choice wins', () => {
    expect(resolveLogFormat('auto', { isTTY: true })).toBe('pretty');
    expect(resolveLogFormat('auto', { isTTY: false })).toBe('json');
    expect(resolveLogFormat('auto', {})).toBe('json');
    expect(resolveLogFormat('json', { isTTY: true })).toBe('json');
    expect(resolveLogFormat('pretty', { isTTY: false })).toBe('pretty');
  });
});

/** A server on an unseeded in-memory database whose log goes to a buffer. */
async function serverLogging(logFormat: 'json' | 'pretty') {
  const log = new PassThrough();
  let text = '';
  log.on('data', (c: Buffer) => {
    text += c.toString();
  });
  const database = await openDatabase(':memory:');
  await migrateToLatest(database);
  const clock = new ManualClock();
  const server = await createServer(parseConfig({ logLevel: 'info', keyFile: '', secretKeyFile: '' }), {
    database,
    clock,
    logStream: log,
    logFormat,
    platform: (s) => new SimulatedPlatform(s.database.db, s.clock, { mediaBaseUrl: s.publicUrl }),
  });
  return {
    server,
    text: () => text,
    close: async () => {
      await server.close();
      await database.close();
    },
  };
}

describe('the request log', () => {
  it('is one readable line per request in the pretty format', async () => {
    const s = await serverLogging('pretty');
    try {
      await s.server.app.inject({ method: 'GET', url: '/health' });
      await s.server.app.inject({ method: 'GET', url: '/nowhere?x=1' });
      const lines = s.text().trimEnd().split('\n');
      const requests = lines.filter((l) => / (GET|POST) /.test(l));
      expect(requests).toHaveLength(2);
      expect(requests[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/health 200 \d+\.\d ms$/);
      expect(requests[1]).toMatch(/INFO: GET \/nowhere\?x=1 404 \d+\.\d ms$/);
      // Not JSON, and no colour codes into a stream that is not a terminal.
      expect(s.text()).not.toContain('{"level"');
      expect(s.text()).not.toContain('\u001b[');
    } finally {
      await s.close();
    }
  });

  it("keeps Fastify's JSON records in the JSON format", async () => {
    const s = await serverLogging('json');
    try {
      // What the request wrote: the records of the start (where the secret key comes from) came before.
      const start = s.text().length;
      await s.server.app.inject({ method: 'GET', url: '/health' });
      const records = s
        .text()
        .slice(start)
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string; req?: { url: string }; res?: { statusCode: number } });
      expect(records.map((r) => r.msg)).toEqual(['incoming request', 'request completed']);
      expect(records[0]?.req?.url).toBe('/health');
      expect(records[1]?.res?.statusCode).toBe(200);
    } finally {
      await s.close();
    }
  });
});
