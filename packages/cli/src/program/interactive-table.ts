import type { InteractiveCommandSpec, InteractiveModule } from '../interactive/types.js';
import { interactiveTable } from '../table/interactive.generated.js';

/** Loads an interactive command's runner through the interactive table, imported only now. */
async function loadRunner(name: string): Promise<InteractiveModule> {
  const { interactiveCommands } = await import('../interactive/index.js');
  const spec = interactiveCommands.find((c) => c.name === name);
  if (!spec) throw new Error(`no interactive command "${name}": rebuild @xsvc/cli`);
  return spec.load();
}

/** The interactive commands from the generated table, each loading its runner when it runs. */
export function interactiveSpecs(): InteractiveCommandSpec[] {
  return interactiveTable.map((data) => ({ ...data, load: () => loadRunner(data.name) }));
}
