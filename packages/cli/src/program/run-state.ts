import type { LoadedCredentials } from '../exec/credentials.js';
import type { CliIO } from '../io.js';
import type { JsonShape } from '../output/json-shape.js';

/** What one run shares between the program and its actions. */
export interface RunState {
  readonly io: CliIO;
  /** The command line (without `xsvc`), to print how to resume a listing. */
  readonly argv: readonly string[];
  /** Set by an action that ends with a code other than 0 (8: a write still pending). */
  exitCode: number;
  /** `--json <fields>` and the compiled `--jq` filter, when given. */
  shape?: JsonShape;
  /** The credentials the command loaded, when it did: an authentication error says where the key came from. */
  credentials?: LoadedCredentials;
}
