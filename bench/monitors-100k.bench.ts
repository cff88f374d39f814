/**
 * Monitors benchmark at scale: 100,000 active account monitors in one server process, every one checked
 * each second while tweets are posted (see `src/monitors-scenario.ts`), with memory after warm-up
 * reported. Goal: all 100,000 checked every second with p99 check lag < 1 s.
 */
import { runMonitorsScenario } from './src/monitors-scenario.js';

if (!(await runMonitorsScenario({ monitors: 100_000, seconds: 15, lagGoalMs: 1_000 }))) process.exitCode = 1;
