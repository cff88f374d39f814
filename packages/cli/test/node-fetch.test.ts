import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFetch } from '../src/exec/node-fetch.js';

/** A loopback server with the kinds of answers the command's fetch meets. */
let server: Server;
let base = '';
const seen: { method: string; headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', headers: req.headers, body });
      if (req.url === '/json') {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req_1' });
        res.end(JSON.stringify({ hello: 'wörld 👋' }));
      } else if (req.url === '/missing') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"not_found","message":"no"}');
      } else if (req.url === '/moved') {
        res.writeHead(302, { location: '/json' });
        res.end();
      } else if (req.url === '/file') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(Buffer.from([0, 1, 2, 255]));
      } else if (req.url === '/empty') {
        res.writeHead(204);
        res.end();
      }
      // `/hang` never answers.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('the command fetch over node:http', () => {
  it('reads a JSON answer: status, headers, text', async () => {
    const res = await nodeFetch(`${base}/json`, { headers: { authorization: 'Bearer k' } });
    expect([res.ok, res.status]).toEqual([true, 200]);
    expect(res.headers.get('X-Request-Id')).toBe('req_1');
    expect(await res.json()).toEqual({ hello: 'wörld 👋' });
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer k');
  });

  it('sends a JSON body with its length', async () => {
    const body = JSON.stringify({ text: 'héllo' });
    const res = await nodeFetch(new URL(`${base}/json`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body });
    expect(seen.at(-1)!.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it('an error status is an answer, not a failure', async () => {
    const res = await nodeFetch(`${base}/missing`);
    expect([res.ok, res.status]).toEqual([false, 404]);
    expect(await res.text()).toContain('not_found');
  });

  it('follows a redirect of a GET', async () => {
    const res = await nodeFetch(`${base}/moved`);
    expect(await res.json()).toEqual({ hello: 'wörld 👋' });
  });

  it('streams a file answer as a real Response; a 204 has no body', async () => {
    const file = await nodeFetch(`${base}/file`);
    expect(file).toBeInstanceOf(Response);
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([0, 1, 2, 255]);
    const empty = await nodeFetch(`${base}/empty`);
    expect([empty.status, empty.body]).toEqual([204, null]);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    const pending = nodeFetch(`${base}/hang`, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('timed out')), 20);
    await expect(pending).rejects.toThrow('timed out');
  });

  it('a refused connection rejects', async () => {
    await expect(nodeFetch('http://127.0.0.1:1/x')).rejects.toThrow(/ECONNREFUSED/);
  });
});
