/**
 * A minimal node:http ↔ Fetch adapter, to serve a `(request: Request) => Promise<Response>` handler from plain
 * Node (tests, `pnpm start`). On Workers, Deno, Bun or Next.js the runtime does this itself.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** The handler shape every Fetch-based runtime uses. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Converts a Node request and its fully read body into a Fetch `Request`. */
export function toRequest(req: IncomingMessage, body: Buffer): Request {
  const headers = new Headers();
  // rawHeaders keeps repeated headers as separate entries, so Headers sees them exactly as sent.
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? 'GET';
  return new Request(new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`), {
    method,
    headers,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: new Uint8Array(body) }),
  });
}

/** Writes a Fetch `Response` to a Node response. */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** An HTTP server that hands every request to `handler` (bodies above `limitBytes` get 413). */
export function serveFetch(handler: FetchHandler, limitBytes = 1024 * 1024): Server {
  return createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limitBytes) {
          res.writeHead(413).end();
          return;
        }
        chunks.push(chunk);
      }
      await writeResponse(await handler(toRequest(req, Buffer.concat(chunks))), res);
    } catch (error) {
      console.error(error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
}
