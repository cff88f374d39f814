import { bootstrapOwner, type ConfigInput, createServer, parseConfig } from '@xsvc/server';

/** A real `@xsvc/server` (in memory, tiny simulated network) listening on a loopback port. */
export interface LocalServer {
  /** Its base URL, `http://127.0.0.1:<port>`. */
  readonly base: string;
  close(): Promise<void>;
}

/** Starts a {@link LocalServer} whose owner's API key is `key`; `config` adds to the defaults. */
export async function startLocalServer(key: string, config: Partial<ConfigInput> = {}): Promise<LocalServer> {
  const cfg = parseConfig({
    databaseUrl: ':memory:',
    seedSize: 'tiny',
    logLevel: 'silent',
    keyFile: '',
    bootstrapApiKey: key,
    ...config,
  });
  const server = await createServer(cfg);
  await bootstrapOwner(server.services.database, cfg, Date.now());
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base: `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}`,
    close: () => server.close(),
  };
}

/** POSTs to a simulated-platform control endpoint of `base` as the owner (`key`); answers the created id. */
export async function simControl(
  base: string,
  key: string,
  path: string,
  body: unknown,
): Promise<{ id: string }> {
  const r = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (r.status !== 201) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as { id: string };
}
