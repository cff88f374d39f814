import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer, type Server, type Socket } from 'node:net';

/** A self-signed certificate for `*.chaos.example`, `localhost` and 127.0.0.1 (valid until 2126). */
export const SELF_SIGNED = {
  key: readFileSync(new URL('./fixtures/self-signed.key', import.meta.url)),
  cert: readFileSync(new URL('./fixtures/self-signed.crt', import.meta.url)),
};

/** The misbehaving receivers, each on its own loopback port. */
export interface FaultPorts {
  /** Nothing listens there (bound once, then closed): `ECONNREFUSED`. */
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
  const closedServer = createNetServer();
  await new Promise<void>((resolve) => closedServer.listen(0, '127.0.0.1', resolve));
  const closed = (closedServer.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closedServer.close(() => resolve()));

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
