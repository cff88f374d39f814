import { EVENT_TYPES, EXPORT_FORMATS, schemas, WEBHOOK_TEST_EVENT_TYPE } from '@xsvc/sdk/contract';
import { flagsFromSchema } from '../src/interactive/shared/contract-flags.js';

/**
 * The source of `src/interactive/contract-options.generated.ts`: what the command table needs from the
 * contract, computed from it here so the table loads without the contract (and zod) at start. Written by
 * `scripts/generate-table.ts` (`pnpm generate`); `test/interactive/index.test.ts` fails when it is stale.
 */
export function renderContractOptions(): string {
  const values: [name: string, doc: string, value: unknown][] = [
    [
      'extractionFlags',
      'Flags of `extractions run`: every body field of an extraction but `toolType`.',
      flagsFromSchema(schemas.ExtractionRequestSchema, ['toolType']),
    ],
    [
      'drawFlags',
      'Flags of `draws run`: every body field of a draw but `tweetUrl`.',
      flagsFromSchema(schemas.DrawRequestSchema, ['tweetUrl']),
    ],
    ['extractionTools', 'The 23 extraction tools.', schemas.EXTRACTION_TOOL_TYPES],
    ['exportFormats', 'The 7 export formats.', EXPORT_FORMATS],
    ['drawExportTypes', 'What a draw export contains.', schemas.DRAW_EXPORT_TYPES],
    ['composeSteps', 'The steps of the compose tool.', schemas.COMPOSE_STEPS],
    ['composeGoals', 'What a post is written for.', schemas.COMPOSE_GOALS],
    ['composeMediaTypes', 'Media planned with a post.', schemas.COMPOSE_MEDIA_TYPES],
    ['triggerTypes', 'The 21 event types and `webhook.test`.', [...EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE]],
  ];
  const lines = [
    '// Generated from the contract by scripts/contract-options.ts. Do not edit by hand:',
    '// after a contract change, run `pnpm generate` (at the root of the repository) and commit.',
    '',
    "import type { InteractiveOptionSpec } from './types.js';",
    '',
  ];
  for (const [name, doc, value] of values) {
    const type = name.endsWith('Flags') ? ': readonly InteractiveOptionSpec[]' : '';
    const tail = name.endsWith('Flags') ? '' : ' as const';
    lines.push(
      `/** ${doc} */`,
      `export const ${name}${type} = ${JSON.stringify(value, null, 2)}${tail};`,
      '',
    );
  }
  return lines.join('\n');
}
