import { InvalidArgumentError } from 'commander';
import { matchChoice } from '../args/choice.js';

/**
 * A commander parser that accepts a choice in any case and passes on its canonical spelling. Set after
 * `.choices()` (which keeps listing them in `--help` and completion), replacing commander's exact check.
 */
export function choiceParser(choices: readonly string[]): (value: string) => string {
  return (value) => {
    const match = matchChoice(choices, value);
    if (match === undefined) throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
    return match;
  };
}
