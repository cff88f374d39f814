import { createServer } from 'node:net';

/**
 * Resolves when `port` can be listened on at `host`, or rejects with one line that says what to do. The
 * `xsvc-server` bin checks this before anything else: preparing the database and seeding the simulated
 * network take a while and write files, and a taken port would only show once they are done.
 */
export function checkPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      reject(new PortUnavailableError(portMessage(port, host, err.code)));
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** The one line explaining why the server cannot listen on `port` (for a listen error's `code`). */
export function portMessage(port: number, host: string, code: string | undefined): string {
  if (code === 'EADDRINUSE')
    return `xsvc-server: port ${port} on ${host} is already in use: stop what listens there, or start with PORT=<another port>`;
  if (code === 'EACCES')
    return `xsvc-server: no permission to listen on port ${port} on ${host}: use a port above 1023 (PORT=8787)`;
  if (code === 'EADDRNOTAVAIL')
    return `xsvc-server: ${host} is not an address of this machine: set HOST to one (HOST=127.0.0.1)`;
  return `xsvc-server: cannot listen on ${host}:${port} (${code ?? 'unknown error'}): set PORT or HOST`;
}

/** The server cannot listen where it is configured to; the message is one line for the operator. */
export class PortUnavailableError extends Error {
  override readonly name = 'PortUnavailableError';
}
