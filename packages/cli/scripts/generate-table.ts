/**
 * Generates the CLI's command tables: `src/table/commands.generated.ts` from the contract (so a new
 * operation appears as a command without hand-written glue), `src/table/interactive.generated.ts` from
 * the interactive commands' table (so listing them in `--help` loads neither it nor the contract), and
 * `src/interactive/contract-options.generated.ts` (the interactive commands' flags, from the contract).
 * Run by `pnpm generate` (never by the build: the output is committed); `test/table.test.ts` and its
 * neighbours fail when a committed file is stale. Imports the SDK's source (see `tsconfig.generate.json`),
 * so it needs no build of the SDK.
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
import { renderContractOptions } from './contract-options.js';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const dir = join(src, 'table');

writeFileSync(join(dir, 'commands.generated.ts'), renderTable(operations));
writeFileSync(join(dir, 'checks.generated.ts'), renderChecks(operations));
writeFileSync(join(dir, 'interactive.generated.ts'), renderInteractiveTable(interactiveCommands));
writeFileSync(join(dir, 'error-hints.generated.ts'), renderErrorHints(errorCatalog));
writeFileSync(join(src, 'interactive', 'contract-options.generated.ts'), renderContractOptions());
console.log(
  `generated the command tables: ${operations.length} operations, ${interactiveCommands.length} interactive commands`,
);
