import { describe, expect, it } from 'vitest';
import { markResources, resourceKindOf, unprefixedId } from '../../src/contract/opt-in-resources.js';

/** The opt-in contract's resource kinds of the draws paths: draws are `drw_`, their commitments are not. */
describe('opt-in resources of the draws paths', () => {
  it('marks draws, and leaves a draw commitment as it is (its id goes back in a body)', () => {
    expect(resourceKindOf('/api/v1/draws')?.object).toBe('draw');
    expect(resourceKindOf('/api/v1/draws/{id}/export')?.object).toBe('draw');
    expect(resourceKindOf('/api/v1/draws/commitments')).toBeUndefined();
    const commitment = { id: '0192f3c4-0000-7000-8000-000000000001', seedHash: 'ab' };
    expect(markResources('/api/v1/draws/commitments', commitment)).toEqual(commitment);
    expect(markResources('/api/v1/draws', { id: 'x', tweetId: '1' })).toMatchObject({
      object: 'draw',
      id: 'drw_x',
    });
    expect(unprefixedId('/api/v1/draws/{id}', 'id', 'drw_x')).toBe('x');
  });
});
