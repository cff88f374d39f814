/**
 * The network of a chaos test, made on this machine (no packet ever leaves loopback):
 *
 * - DNS: the names of `hosts` resolve to their address; every other name fails as getaddrinfo does
 *   (`ENOTFOUND`), `localhost` and IP literals excepted, so a test never asks a real resolver.
 * - TCP: a connection to an address of `routes` (`"address:port"` or `"address"`) goes to that loopback port
 *   instead; a connection to any other address off loopback fails synchronously with `ENETUNREACH`, exactly
 *   as the kernel answers `connect()` without a route (libuv returns the error from `uv_tcp_connect` at once,
 *   and Node's `internalConnect` destroys the socket inside the `connect` call).
 *
 * Plain JavaScript so that it loads into the built server with `node --import` (see `net-faults-preload.mjs`)
 * and into a test process alike ({@link installNetFaults}).
 */
import { readFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { isIP } from 'node:net';
import { constants } from 'node:os';

const require = createRequire(import.meta.url);
const UV_ENETUNREACH = -constants.errno.ENETUNREACH;

/**
 * @typedef {object} NetFaults
 * @property {Record<string, string>} [hosts] names and the (public-looking) address each resolves to
 * @property {Record<string, number>} [routes] `"address:port"` or `"address"` to the loopback port used instead
 */

const isLoopback = (address) => address === '::1' || address.startsWith('127.') || address === 'localhost';

/** `getaddrinfo`'s answer for a name it does not know. */
function notFound(hostname) {
  const err = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  err.code = 'ENOTFOUND';
  err.errno = -3008;
  err.syscall = 'getaddrinfo';
  err.hostname = hostname;
  return err;
}

/** What a name resolves to under `faults`; null when the real lookup may answer (loopback, IP literal). */
function answerFor(faults, hostname) {
  const name = String(hostname).replace(/\.$/, '').toLowerCase();
  if (name === 'localhost' || isIP(name) !== 0) return null;
  const address = faults.hosts?.[name];
  if (!address) return { error: notFound(hostname) };
  return { address, family: isIP(address) === 6 ? 6 : 4 };
}

/**
 * Installs `current()`'s faults in this process (DNS of `node:dns` and `node:dns/promises`, TCP connections
 * of every socket of this thread; asked at each lookup and connection, so a test can change the network
 * while the server runs); answers a function that puts everything back. Worker threads are not covered.
 * @param {() => NetFaults} current
 * @returns {() => void}
 */
export function installNetFaults(current) {
  const dns = require('node:dns');
  const dnsPromises = require('node:dns/promises');
  const realLookup = dns.lookup;
  const realPromisesLookup = dnsPromises.lookup;
  const realPromisesOfDns = dns.promises.lookup;
  const fakeLookup = function lookup(hostname, options, callback) {
    const cb = typeof options === 'function' ? options : callback;
    const opts = typeof options === 'object' && options !== null ? options : {};
    const answer = answerFor(current(), hostname);
    if (answer === null) return realLookup.call(dns, hostname, options, callback);
    // Asynchronous, as a real lookup always is.
    process.nextTick(() => {
      if (answer.error) return cb(answer.error);
      if (opts.all) cb(null, [{ address: answer.address, family: answer.family }]);
      else cb(null, answer.address, answer.family);
    });
  };
  const fakePromisesLookup = async function lookup(hostname, options) {
    const answer = answerFor(current(), hostname);
    if (answer === null) return realPromisesLookup.call(dnsPromises, hostname, options);
    if (answer.error) throw answer.error;
    const one = { address: answer.address, family: answer.family };
    return options?.all ? [one] : one;
  };
  dns.lookup = fakeLookup;
  dnsPromises.lookup = fakePromisesLookup;
  dns.promises.lookup = fakePromisesLookup;
  syncBuiltinESMExports();

  const { TCP } = process.binding('tcp_wrap');
  const connect4 = TCP.prototype.connect;
  const connect6 = TCP.prototype.connect6;
  const routed = (address, port) => {
    const routes = current().routes ?? {};
    return routes[`${address}:${port}`] ?? routes[address];
  };
  TCP.prototype.connect = function connect(req, address, port, ...rest) {
    if (isLoopback(address)) return connect4.call(this, req, address, port, ...rest);
    const to = routed(address, port);
    if (to !== undefined) return connect4.call(this, req, '127.0.0.1', to, ...rest);
    return UV_ENETUNREACH;
  };
  TCP.prototype.connect6 = function connect(req, address, port, ...rest) {
    if (isLoopback(address)) return connect6.call(this, req, address, port, ...rest);
    const to = routed(address, port);
    if (to !== undefined) return connect4.call(this, req, '127.0.0.1', to, ...rest);
    return UV_ENETUNREACH;
  };
  return () => {
    TCP.prototype.connect = connect4;
    TCP.prototype.connect6 = connect6;
    dns.lookup = realLookup;
    dnsPromises.lookup = realPromisesLookup;
    dns.promises.lookup = realPromisesOfDns;
    syncBuiltinESMExports();
  };
}

/**
 * The faults of the environment: `XSVC_CHAOS_NET_FILE`, a JSON file of {@link NetFaults} read again at each
 * use (the test rewrites it to change the network), or `XSVC_CHAOS_NET`, the JSON itself. Undefined when
 * neither is set.
 * @returns {(() => NetFaults) | undefined}
 */
export function netFaultsFromEnv(env = process.env) {
  const file = env.XSVC_CHAOS_NET_FILE;
  if (file) return () => JSON.parse(readFileSync(file, 'utf8'));
  const raw = env.XSVC_CHAOS_NET;
  if (!raw) return undefined;
  const faults = JSON.parse(raw);
  return () => faults;
}

/** What the preload writes on stderr once the faults are installed. */
export const NET_FAULTS_MARKER = 'xsvc-chaos: network faults installed';
