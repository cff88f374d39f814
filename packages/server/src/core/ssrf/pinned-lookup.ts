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
