/**
 * Monitors benchmark: 10,000 active account monitors on one server process, checked every second while
 * tweets are posted (see `src/monitors-scenario.ts` for what is measured and printed). Goal: all 10,000
 * checked every second with p99 check lag < 100 ms. `monitors-100k.bench.ts` runs the same at 100,000.
 */
import { runMonitorsScenario } from './src/monitors-scenario.js';

if (!(await runMonitorsScenario({ monitors: 10_000, seconds: 10, lagGoalMs: 100 }))) process.exitCode = 1;
