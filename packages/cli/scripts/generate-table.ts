/**
 * Generates the CLI's command tables: `src/table/commands.generated.ts` from the contract (so a new
 * operation appears as a command without hand-written glue) and `src/table/interactive.generated.ts` from
 * the interactive commands' table (so listing them in `--help` loads neither it nor the contract). Run by
 * `pnpm build`; `test/table.test.ts` fails when a committed table is stale.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCatalog, operations } from '@xsvc/sdk/contract';
import { interactiveCommands } from '../src/interactive/index.js';
import { renderTable } from '../src/table/render.js';
import { renderChecks } from '../src/table/render-checks.js';
import { renderErrorHints } from '../src/table/render-hints.js';
import { renderInteractiveTable } from '../src/table/render-interactive.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'table');

writeFileSync(join(dir, 'commands.generated.ts'), renderTable(operations));
writeFileSync(join(dir, 'checks.generated.ts'), renderChecks(operations));
writeFileSync(join(dir, 'interactive.generated.ts'), renderInteractiveTable(interactiveCommands));
writeFileSync(join(dir, 'error-hints.generated.ts'), renderErrorHints(errorCatalog));
console.log(
  `generated the command tables: ${operations.length} operations, ${interactiveCommands.length} interactive commands`,
);
