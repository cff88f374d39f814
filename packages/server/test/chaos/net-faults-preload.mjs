/**
 * `node --import ./net-faults-preload.mjs dist/bin.js`: the built server runs in the network that
 * `XSVC_CHAOS_NET` describes (see `net-faults.mjs`). Without the variable it changes nothing.
 */
import { installNetFaults, netFaultsFromEnv } from './net-faults.mjs';

const faults = netFaultsFromEnv();
if (faults) installNetFaults(faults);
