import { Box, Text, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { StepRunner } from '../compose/api.js';
import {
  type AskedInput,
  type ComposeInputs,
  type ComposeResults,
  GOALS,
  nextAction,
  type Step,
} from '../compose/flow.js';
import { ComposeResultsView } from './compose-results.js';
import { dim, paint } from './paint.js';
import { SelectInput } from './select-input.js';
import { spinnerFrame } from './spinner.js';
import { TextInput } from './text-input.js';
import { useLatest } from './use-latest.js';

/** How the form ended. */
export type ComposeOutcome =
  | { readonly kind: 'done'; readonly inputs: ComposeInputs; readonly results: ComposeResults }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly error: unknown };

/** Props of {@link ComposeForm}. */
export interface ComposeFormProps {
  readonly steps: readonly Step[];
  /** Inputs given as flags; the form asks for the rest. */
  readonly initial: ComposeInputs;
  readonly runStep: StepRunner;
  readonly onEnd: (outcome: ComposeOutcome) => void;
  readonly color: boolean;
}

const PROMPTS: Readonly<Record<Exclude<AskedInput, 'goal'>, { label: string; hint: string }>> = {
  topic: { label: 'Topic:', hint: 'what is the post about?' },
  tone: { label: 'Tone:', hint: 'casual, technical, playful…' },
  draft: { label: 'Draft:', hint: 'write the post, Enter to score it' },
};

/**
 * The `xsvc compose` form: asks for the topic and goal, shows the writing rules and questions, asks for the
 * tone and shows the guidance, then takes the draft and shows its score; the draft can be edited and scored
 * again until it passes. Inputs given as flags are not asked again.
 */
export function ComposeForm({ steps, initial, runStep, onEnd, color }: ComposeFormProps) {
  const [inputs, setInputs] = useState<ComposeInputs>(initial);
  const [results, setResults] = useState<ComposeResults>({});
  const [editing, setEditing] = useState(false);
  const [ended, setEnded] = useState(false);
  const action = editing
    ? ({ kind: 'ask', input: 'draft', step: 'score' } as const)
    : nextAction(steps, inputs, results, true);
  const reviewing = action.kind === 'done' && results.score !== undefined && !ended;
  const endedOnce = useRef(false);
  const end = (outcome: ComposeOutcome) => {
    if (endedOnce.current) return;
    endedOnce.current = true;
    setEnded(true);
    onEnd(outcome);
  };
  // Effects and key handlers read the latest state here (see useLatest), so they depend on steps only.
  const latest = useLatest({ inputs, results, runStep, end });
  const cancel = () => end({ kind: 'cancelled' });
  const set = (key: AskedInput, value: string) => {
    setInputs((i) => ({ ...i, [key]: value }));
    if (key === 'draft') setEditing(false);
  };

  const runningStep = action.kind === 'run' ? action.step : undefined;
  const asked = action.kind === 'ask' ? action.input : undefined;
  useEffect(() => {
    if (runningStep === undefined) return;
    let live = true;
    const { runStep: runIt, inputs: now } = latest.current;
    runIt(runningStep, now).then(
      (r) => live && setResults((prev) => ({ ...prev, ...r })),
      (error: unknown) => live && latest.current.end({ kind: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [runningStep, latest]);

  // Without a score step there is nothing to review: the form ends once the last step answered.
  const finished = action.kind === 'done' && results.score === undefined;
  useEffect(() => {
    if (finished)
      latest.current.end({ kind: 'done', inputs: latest.current.inputs, results: latest.current.results });
  }, [finished, latest]);

  useInput(
    (input, key) => {
      if (key.ctrl && input === 'c') cancel();
      else if (input === 'e') {
        setResults(({ score: _score, ...rest }) => rest);
        setEditing(true);
      } else if (input === 'q' || key.return || key.escape) {
        end({ kind: 'done', inputs: latest.current.inputs, results: latest.current.results });
      }
    },
    { isActive: reviewing },
  );

  return (
    <Box flexDirection="column">
      <Text bold>Compose a post</Text>
      {inputs.topic ? <Text>{`  Topic: ${inputs.topic}`}</Text> : null}
      {inputs.goal ? <Text>{`  Goal: ${inputs.goal}`}</Text> : null}
      {inputs.tone ? <Text>{`  Tone: ${inputs.tone}`}</Text> : null}
      <ComposeResultsView results={results} draft={results.score ? inputs.draft : undefined} color={color} />
      <Box marginTop={1}>
        {ended ? null : asked === 'goal' ? (
          <SelectInput
            label="Goal:"
            options={GOALS}
            onSubmit={(g) => setInputs((i) => ({ ...i, goal: g }))}
            onCancel={cancel}
            color={color}
          />
        ) : asked !== undefined ? (
          <TextInput
            key={asked}
            label={PROMPTS[asked].label}
            hint={PROMPTS[asked].hint}
            initial={asked === 'draft' ? inputs.draft : undefined}
            onSubmit={(v) => set(asked, v)}
            onCancel={cancel}
            color={color}
          />
        ) : runningStep !== undefined ? (
          <Text {...paint(color, 'cyan')}>{`${spinnerFrame(0)} Running the ${runningStep} step…`}</Text>
        ) : reviewing ? (
          <Text {...dim(color)}>e: edit the draft and score again · q or Enter: done</Text>
        ) : null}
      </Box>
    </Box>
  );
}
