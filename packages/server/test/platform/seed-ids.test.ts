import { describe, expect, it } from 'vitest';
import { SNOWFLAKE_EPOCH_MS } from '../../src/platform/simulated/ids.js';
import { generateNetwork } from '../../src/platform/simulated/seed/generate.js';

describe('the seeded network', () => {
  // Found by starting the server on 2026-11-27: two generated accounts created in the hour and a half
  // before the snowflake epoch both got the id 0, and the first start failed on sim_users' primary key.
  it('gives every account its own id, also to accounts made just before snowflake ids began', () => {
    const now = Date.parse('2026-11-27T09:02:11.893Z');
    const { sim_users: users } = generateNetwork({ size: 'default', seed: 42, now }) as unknown as {
      sim_users: { id: string; created_at: number }[];
    };
    const ids = users.map((u) => u.id);
    expect(new Set(ids).size).toBe(ids.length);
    const early = users.filter((u) => Number(u.created_at) < SNOWFLAKE_EPOCH_MS);
    expect(early.length).toBeGreaterThan(1);
  }, 120_000); // generating the `default` network is seconds of CPU: more on a loaded machine
});
