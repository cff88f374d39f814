import type { ComposeInputs, ComposeResults, Step } from '../../src/interactive/compose/flow.js';

export const PREPARE = {
  contentRules: [{ rule: 'Lead with the result' }, { rule: 'One idea per post' }],
  scorerWeights: [{ context: 'home', signal: 'reply', weight: null }],
  followUpQuestions: ['What changed for the reader?'],
  engagementMultipliers: [{ action: 'reply', multiplier: 'Production weight not published by X' as const }],
  engagementVelocity: 'The first hour decides the reach.',
  intentUrl: 'https://x.com/intent/post',
  nextStep: 'refine',
  topPenalties: ['Links in the first line'],
  source: 'ranking model',
  radarRecommendations: [],
};

export const REFINE = {
  compositionGuidance: ['Open with a number'],
  examplePatterns: [{ pattern: 'Before/after', description: 'Show the change' }],
  intentUrl: 'https://x.com/intent/post',
  nextStep: 'score',
};

export function scoreFor(draft: string) {
  const passed = draft.includes('3x');
  return {
    totalChecks: 2,
    passedCount: passed ? 2 : 1,
    passed,
    topSuggestion: passed ? 'Post it' : 'Add a concrete number',
    checklist: [
      { factor: 'Hook in the first line', passed: true },
      { factor: 'Concrete number', passed, ...(passed ? {} : { suggestion: 'say how much faster' }) },
    ],
    nextStep: passed ? 'post' : 'edit',
    ...(passed ? { intentUrl: `https://x.com/intent/post?text=${encodeURIComponent(draft)}` } : {}),
  };
}

/** A step runner answering fixtures and recording what it was asked. */
export function fakeSteps() {
  const calls: { step: Step; inputs: ComposeInputs }[] = [];
  const runStep = async (step: Step, inputs: ComposeInputs): Promise<ComposeResults> => {
    calls.push({ step, inputs });
    if (step === 'compose') return { compose: PREPARE };
    if (step === 'refine') return { refine: REFINE };
    return { score: scoreFor(inputs.draft ?? '') };
  };
  return { runStep, calls };
}
