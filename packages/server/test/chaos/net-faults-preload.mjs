/**
 * `node --import ./net-faults-preload.mjs dist/bin.js`: the built server runs in the network that
 * `XSVC_CHAOS_NET_FILE` or `XSVC_CHAOS_NET` describes (see `net-faults.mjs`), and says so on stderr (the
 * harness waits for that line: no fault test runs with the real network by mistake). Without either
 * variable it changes nothing.
 */
import { installNetFaults, NET_FAULTS_MARKER, netFaultsFromEnv } from './net-faults.mjs';

const faults = netFaultsFromEnv();
if (faults) {
  installNetFaults(faults);
  process.stderr.write(`${NET_FAULTS_MARKER}\n`);
}
