import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMemoryNonceStore,
  readRawBody,
  verifyWebhook,
  type WebhookEvent,
} from '@xsvc/webhook-verifier';

/** A delivery the receiver accepted: verified signature, fresh timestamp and nonce. */
export interface Received {
  readonly event: WebhookEvent;
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
}

/** A webhook receiver on 127.0.0.1 that verifies every request with the verifier package, as users will. */
export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** Verification failures (their reason). */
  readonly rejected: string[];
  close(): Promise<void>;
}

/**
 * Starts a receiver: verifies each POST with `secret` at clock `now` (the tests sign at a fixed time), answers
 * 401 when verification fails, else the status `answer` picks for the n-th accepted delivery.
 */
export async function startReceiver(
  secret: string,
  now: () => number,
  answer: (n: number) => number = () => 200,
): Promise<Receiver> {
  const received: Received[] = [];
  const rejected: string[] = [];
  const nonceStore = createMemoryNonceStore();
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readRawBody(req);
      try {
        const event = await verifyWebhook({ payload: raw, headers: req.headers, secret, now, nonceStore });
        received.push({ event, headers: req.headers, raw: Buffer.from(raw).toString('utf8') });
        res.writeHead(answer(received.length)).end('ok');
      } catch (err) {
        rejected.push(err instanceof Error ? err.message : String(err));
        res.writeHead(401).end('bad signature');
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    rejected,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
