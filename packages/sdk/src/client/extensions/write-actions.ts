import { WriteActionsResource } from '../resources.generated.js';
import type { RequestOptions } from '../types.js';
import { WriteAction } from '../write-action.js';

/** `client.writeActions`: the status of durable writes, and resuming the wait for one. */
export class WriteActionsApi extends WriteActionsResource {
  /**
   * Loads a write action by id and returns its handle, to `wait()` on it after a restart or from another
   * process: `await (await client.writeActions.resume(id)).wait()`.
   */
  resume(id: string, options: Pick<RequestOptions, 'signal'> = {}): Promise<WriteAction> {
    return WriteAction.resume(this._t, id, options.signal ? { signal: options.signal } : {});
  }
}
