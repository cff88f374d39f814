import type { LookupFunction } from 'node:net';
import type { Target } from './target.js';

/**
 * A `lookup` for `http.request`/`tls.connect` that answers with the address the guard vetted, so the
 * connection goes exactly there: no second DNS query can be answered with another (private) address.
 *
 * It answers on a later turn of the event loop, as a real DNS lookup always does. Node's socket code relies
 * on that: answered synchronously, a connection that fails at once (`connect()` without a route answers
 * `ENETUNREACH` immediately) destroys the socket inside `tls.connect`, which then throws out of
 * `https.request` and emits the socket's `'error'` before any listener is attached, ending the process.
 */
export function pinnedLookup(target: Pick<Target, 'address' | 'family'>): LookupFunction {
  return (_hostname, options, callback) => {
    setImmediate(() => {
      if (options.all) callback(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    });
  };
}

/**
 * Where `http.request`/`https.request` connects for a vetted target: a name through {@link pinnedLookup}
 * (keeping the name for TLS), an address as is; the path and query of its URL.
 */
export function pinnedConnection(target: Target): {
  host: string;
  port: number;
  path: string;
  lookup?: LookupFunction;
  servername?: string;
} {
  const isName = target.kind === 'name';
  return {
    host: isName ? target.host : target.address,
    port: target.port,
    path: `${target.url.pathname}${target.url.search}`,
    ...(isName && { lookup: pinnedLookup(target), servername: target.host.replace(/\.$/, '') }),
  };
}
