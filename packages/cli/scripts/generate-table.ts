/**
 * Generates the CLI's command tables from the contract (so a new operation appears as a command without
 * hand-written glue): one table of commands and one of quick checks per resource under `src/table/resources`
 * and `src/table/checks` (a command line loads only its resource's), `src/table/index.generated.ts` (what a
 * line needs before it knows its resource), `commands.generated.ts` and `checks.generated.ts` (every one,
 * gathered, for the library and the tests), `src/table/interactive.generated.ts` from
 * the interactive commands' table (so listing them in `--help` loads neither it nor the contract), and
 * `src/interactive/contract-options.generated.ts` (the interactive commands' flags, from the contract).
 * Run by `pnpm generate` (never by the build: the output is committed); `test/table.test.ts` and its
 * neighbours fail when a committed file is stale. Imports the SDK's source (see `tsconfig.generate.json`),
 * so it needs no build of the SDK.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCatalog, operations } from '@xsvc/sdk/contract';
import { interactiveCommands } from '../src/interactive/index.js';
import { renderResourceTables, renderTable } from '../src/table/render.js';
import { renderChecks } from '../src/table/render-checks.js';
import { renderErrorHints } from '../src/table/render-hints.js';
import { renderInteractiveTable } from '../src/table/render-interactive.js';
import { renderContractOptions } from './contract-options.js';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const dir = join(src, 'table');

// The per-resource tables: the directories are emptied first, so a resource gone from the contract leaves
// no file behind.
for (const sub of ['resources', 'checks']) {
  rmSync(join(dir, sub), { recursive: true, force: true });
  mkdirSync(join(dir, sub));
}
for (const [file, text] of renderResourceTables(operations)) writeFileSync(join(dir, file), text);
writeFileSync(join(dir, 'commands.generated.ts'), renderTable(operations));
writeFileSync(join(dir, 'checks.generated.ts'), renderChecks(operations));
writeFileSync(join(dir, 'interactive.generated.ts'), renderInteractiveTable(interactiveCommands));
writeFileSync(join(dir, 'error-hints.generated.ts'), renderErrorHints(errorCatalog));
writeFileSync(join(src, 'interactive', 'contract-options.generated.ts'), renderContractOptions());
console.log(
  `generated the command tables: ${operations.length} operations, ${interactiveCommands.length} interactive commands`,
);
