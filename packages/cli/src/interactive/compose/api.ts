import type { Xsvc } from '@xsvc/sdk';
import { type ComposeInputs, type ComposeResults, requestFor, type Step } from './flow.js';

/** Runs one step of the compose tool and returns its answer under the step's name. */
export type StepRunner = (step: Step, inputs: ComposeInputs) => Promise<ComposeResults>;

/** A {@link StepRunner} on the service (POST /compose; free). */
export function serviceSteps(client: Xsvc, signal: AbortSignal): StepRunner {
  return async (step, inputs) => {
    const answer = await client.compose.run(requestFor(step, inputs), { signal });
    // The answer's shape follows the step that was asked for (one union in the contract).
    return { [step]: answer } as ComposeResults;
  };
}
