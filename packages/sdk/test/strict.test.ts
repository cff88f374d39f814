/**
 * The SDK as apps compile it: fixtures under test/fixtures/strict are type-checked against the built
 * package with the strictest settings (`exactOptionalPropertyTypes`, `noPropertyAccessFromIndexSignature`…).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { strictDir, typeErrors } from './strict-tsc.js';

describe('strict consumers', () => {
  it('accepts options from unset environment variables under exactOptionalPropertyTypes', () => {
    expect(typeErrors([join(strictDir, 'env-options.ts')])).toEqual([]);
  }, 60_000);

  it('reports a wrong option (the check can fail)', () => {
    const file = join(strictDir, 'wrong.ts');
    const errors = typeErrors([], {
      [file]: "import { Xsvc } from '@xsvc/sdk';\nexport const c = new Xsvc({ timeoutMs: '5' });\n",
    });
    expect(errors.join('\n')).toMatch(/TS2322/);
  }, 60_000);
});
