import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import {
  type AddressInfo,
  connect,
  createServer as createNetServer,
  type Server,
  type Socket,
} from 'node:net';

/** A self-signed certificate for `*.chaos.example`, `localhost` and 127.0.0.1 (valid until 2126). */
export const SELF_SIGNED = {
  key: readFileSync(new URL('./fixtures/self-signed.key', import.meta.url)),
  cert: readFileSync(new URL('./fixtures/self-signed.crt', import.meta.url)),
};

/** The misbehaving receivers, each on its own loopback port. */
export interface FaultPorts {
  /** Nothing listens there: `ECONNREFUSED` (see {@link refusingPort}). */
  readonly closed: number;
  /** Accepts, then resets the connection before any answer (RST). */
  readonly reset: number;
  /** Answers the status line and part of a 500 body, then resets. */
  readonly resetAfterHeaders: number;
  /** Accepts and reads, never answers. */
  readonly stall: number;
  /** Accepts and never reads a byte of the request (its socket paused), never answers. */
  readonly neverReads: number;
  /** HTTPS with the self-signed certificate (a client that verifies refuses it). */
  readonly selfSigned: number;
  /** Answers plain HTTP bytes to a TLS hello: the handshake fails. */
  readonly notTls: number;
  /** HTTP 302 to somewhere else. */
  readonly redirect: number;
  /** HTTP 200 with an answer of 8 MiB. */
  readonly oversized: number;
  /** HTTP 500. */
  readonly serverError: number;
  /** HTTP 200, the body read: a healthy receiver. */
  readonly ok: number;
}

/** The listeners of {@link FaultPorts}; `close()` ends them and every connection they hold. */
export interface FaultListeners {
  readonly ports: FaultPorts;
  close(): Promise<void>;
}

/** Starts every fault listener on 127.0.0.1. */
export async function startFaultListeners(): Promise<FaultListeners> {
  const sockets = new Set<Socket>();
  const servers: (Server | HttpServer)[] = [];
  const hold = (s: Socket) => {
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  };
  const listen = async (server: Server | HttpServer): Promise<number> => {
    server.on('connection', hold);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };
  const closed = await refusingPort();

  const ports: FaultPorts = {
    closed,
    reset: await listen(createNetServer((s) => s.resetAndDestroy())),
    resetAfterHeaders: await listen(
      createNetServer((s) =>
        s.once('data', () => {
          s.write('HTTP/1.1 500 Internal Server Error\r\ncontent-length: 10000\r\n\r\npartial');
          setImmediate(() => s.resetAndDestroy());
        }),
      ),
    ),
    stall: await listen(createNetServer((s) => s.resume())),
    neverReads: await listen(createNetServer((s) => s.pause())),
    selfSigned: await listen(
      createHttpsServer(SELF_SIGNED, (req, res) => {
        req.resume();
        res.end('ok');
      }),
    ),
    notTls: await listen(
      createNetServer((s) => s.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n')),
    ),
    redirect: await listen(
      createHttpServer((req, res) => {
        req.resume();
        res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      }),
    ),
    oversized: await listen(
      createHttpServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(Buffer.alloc(8 * 1024 * 1024, 120));
      }),
    ),
    serverError: await listen(
      createHttpServer((req, res) => {
        req.resume();
        res.writeHead(500).end('down');
      }),
    ),
    ok: await listen(
      createHttpServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(200).end('ok'));
      }),
    ),
  };
  return {
    ports,
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}

/**
 * A loopback port where nothing listens, and none will while the tests run: a port below the ephemeral range,
 * checked to refuse a connection now. A port bound and then closed is no such thing: test files run side by
 * side, and the next server that listens on port 0 may be handed it (a "refused" receiver then answered 500).
 */
async function refusingPort(): Promise<number> {
  for (const port of [9, 7, 1, 11, 13, 17, 19]) {
    const refused = await new Promise<boolean>((resolve) => {
      const s = connect({ host: '127.0.0.1', port });
      s.once('connect', () => {
        s.destroy();
        resolve(false);
      });
      s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
    });
    if (refused) return port;
  }
  throw new Error('no refusing loopback port below 20: something listens on all of 1, 7, 9, 11, 13, 17, 19');
}
