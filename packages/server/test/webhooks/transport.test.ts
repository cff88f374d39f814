import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from '../../src/core/ssrf/target.js';
import {
  type Agents,
  closeAgents,
  createAgents,
  sendToTarget,
} from '../../src/features/webhooks/transport.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

describe('delivery transport', () => {
  let server: Server;
  let port: number;
  let handler: Handler = (_req, res) => res.end('ok');
  let agents: Agents;
  const limits = { timeoutMs: 5_000, maxResponseBytes: 64 * 1024 };

  beforeAll(async () => {
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    agents = createAgents();
  });
  afterAll(async () => {
    closeAgents(agents);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A target named `host` whose vetted address is the local test server. */
  function target(host: string): Target {
    return {
      url: new URL(`http://${host}:${port}/hook?x=1`),
      kind: 'name',
      host,
      port,
      address: '127.0.0.1',
      family: 4,
    };
  }

  it('connects to the vetted address, never asking DNS again (a .invalid name cannot resolve)', async () => {
    let seen: { host?: string; url?: string; body?: string } = {};
    handler = (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        seen = { host: req.headers.host ?? '', url: req.url ?? '', body };
        res.writeHead(202).end();
      });
    };
    const outcome = await sendToTarget(target('hooks.invalid'), '{"a":1}', {}, limits, agents);
    expect(outcome).toEqual({ ok: true, statusCode: 202 });
    expect(seen).toEqual({ host: `hooks.invalid:${port}`, url: '/hook?x=1', body: '{"a":1}' });
  });

  it('reuses the connection for the next delivery (keep-alive)', async () => {
    const ports: number[] = [];
    handler = (req, res) => {
      ports.push(req.socket.remotePort ?? 0);
      req.resume();
      req.on('end', () => res.end('ok'));
    };
    await sendToTarget(target('a.invalid'), '{}', {}, limits, agents);
    await sendToTarget(target('a.invalid'), '{}', {}, limits, agents);
    expect(ports).toHaveLength(2);
    expect(ports[1]).toBe(ports[0]);
  });

  it('reads at most maxResponseBytes of an answer and cuts the rest off', async () => {
    let cutOff: Promise<boolean> = Promise.resolve(false);
    handler = (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 120);
      let sent = 0;
      cutOff = new Promise((resolve) => res.on('close', () => resolve(!res.writableFinished)));
      const pump = () => {
        while (sent < 200 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    };
    const outcome = await sendToTarget(target('big.invalid'), '{}', {}, limits, agents);
    expect(outcome).toEqual({ ok: true, statusCode: 200 });
    expect(await cutOff).toBe(true);
  });

  it('gives up after the timeout when the endpoint never answers', async () => {
    handler = (req) => req.resume();
    const outcome = await sendToTarget(
      target('slow.invalid'),
      '{}',
      {},
      { ...limits, timeoutMs: 150 },
      agents,
    );
    expect(outcome).toEqual({ ok: false, statusCode: null, error: 'timeout after 150 ms' });
  });

  it('stops at once when the engine is stopping', async () => {
    handler = (req) => req.resume();
    const abort = new AbortController();
    const pending = sendToTarget(target('stop.invalid'), '{}', {}, limits, agents, abort.signal);
    abort.abort();
    expect(await pending).toEqual({
      ok: false,
      statusCode: null,
      error: 'cancelled: the server is stopping',
    });
  });

  it('reports a refused connection with its code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const outcome = await sendToTarget(
      { ...target('down.invalid'), port: deadPort, url: new URL(`http://down.invalid:${deadPort}/`) },
      '{}',
      {},
      limits,
      agents,
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/ECONNREFUSED/);
  });
});
