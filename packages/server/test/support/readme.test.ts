import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RADAR_ITEMS_PER_SOURCE } from '../../src/features/composition/radar/seed.js';
import { STYLE_SAMPLE_SIZE } from '../../src/features/composition/styles/fetch.js';
import { SUPPORT_LIMITS } from '../../src/features/support/limits.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('the README on composition and support', () => {
  it('names the limits as the code defines them', () => {
    expect(readme).toContain(`its ${STYLE_SAMPLE_SIZE} most recent`);
    expect(readme).toContain(`at most ${SUPPORT_LIMITS.attachmentsPerMessage} files per message`);
    expect(readme).toContain(`${SUPPORT_LIMITS.attachmentBytes / 1024 / 1024} MiB each`);
    expect(readme).toContain(`${SUPPORT_LIMITS.requestsPerWindow} messages`);
    expect(readme).toContain(`${SUPPORT_LIMITS.attachmentsPerWindow} files (429`);
    expect(SUPPORT_LIMITS.windowMs).toBe(3_600_000);
    expect(readme).toContain(
      `${RADAR_ITEMS_PER_SOURCE.tiny} items per source for \`tiny\`, ${RADAR_ITEMS_PER_SOURCE.small} for\n\`small\`, ${RADAR_ITEMS_PER_SOURCE.default} for \`default\``,
    );
  });
});
