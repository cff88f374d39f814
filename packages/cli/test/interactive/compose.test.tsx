import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { nextAction, requestFor } from '../../src/interactive/compose/flow.js';
import { compose, parseComposeOptions, run } from '../../src/interactive/compose.js';
import { ComposeForm, type ComposeOutcome } from '../../src/interactive/views/compose-form.js';
import { fakeSteps, PREPARE, REFINE, scoreFor } from './compose-fixtures.js';
import { contextFor, fakeIo, jsonLines, mockClient } from './helpers.js';

const ALL = { topic: 'small releases', goal: 'engagement', tone: 'casual', draft: 'We ship 3x faster now' };

/** Waits until the view shows `text` (ink renders after React commits). */
async function shows(lastFrame: () => string | undefined, text: string): Promise<void> {
  await vi.waitFor(() => expect(lastFrame() ?? '').toContain(text), { timeout: 20_000, interval: 5 });
  // Let ink subscribe the input handlers of the new frame (an effect, run after the frame is drawn).
  await new Promise((resolve) => setImmediate(resolve));
}

describe('compose without a terminal', () => {
  it('runs the three steps on the service with the flags and prints the answers as JSON', async () => {
    const bodies: unknown[] = [];
    const { client } = mockClient({
      compose: async ({ request }: { request: Request }) => {
        const body = (await request.json()) as { step: string; draft?: string };
        bodies.push(body);
        return body.step === 'compose'
          ? PREPARE
          : body.step === 'refine'
            ? REFINE
            : scoreFor(body.draft ?? '');
      },
    });
    const io = fakeIo(false);
    const options = parseComposeOptions({
      ...ALL,
      styleUsername: 'jack',
      callToAction: 'reply',
      hasLink: 'false',
    });
    expect(await compose(contextFor(client, io, { json: true }), options)).toBe(0);
    expect(bodies).toEqual([
      { step: 'compose', topic: 'small releases', goal: 'engagement', styleUsername: 'jack' },
      { step: 'refine', topic: 'small releases', goal: 'engagement', tone: 'casual', callToAction: 'reply' },
      { step: 'score', draft: 'We ship 3x faster now', hasLink: false },
    ]);
    expect(jsonLines(io.stdout)).toEqual([{ compose: PREPARE, refine: REFINE, score: scoreFor(ALL.draft) }]);
  });

  it('prints readable text when piped without --json', async () => {
    const { runStep } = fakeSteps();
    const io = fakeIo(false);
    const options = parseComposeOptions({ step: 'score', draft: 'no number here' });
    expect(await compose(contextFor(mockClient().client, io), options, runStep)).toBe(0);
    expect(io.stdout.lines()).toEqual([
      'Score: 1/2 checks passed',
      '  ✓ Hook in the first line',
      '  ✗ Concrete number (say how much faster)',
      'Top suggestion: Add a concrete number',
    ]);
  });

  it('exits 2 naming the flag to pass when an input is missing, before any request', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, '--topic'],
      [{ topic: 't' }, '--goal'],
      [{ topic: 't', goal: 'followers' }, '--tone'],
      [{ topic: 't', goal: 'followers', tone: 'dry' }, '--draft'],
      [{ step: 'refine', topic: 't', tone: 'dry' }, '--goal'],
      [{ ...ALL, goal: 'fame' }, '--goal'],
      [{ ...ALL, step: 'post' }, '--step'],
      [{ ...ALL, styleUsername: 'not a user' }, '--style-username'],
    ];
    for (const [raw, flag] of cases) {
      const { client, requests } = mockClient();
      const io = fakeIo(false);
      expect(await run(contextFor(client, io), raw)).toBe(2);
      expect(io.stderr.text()).toContain(flag);
      expect(requests).toHaveLength(0);
    }
    const io = fakeIo(true);
    expect(await run(contextFor(mockClient().client, io, { json: true }), { topic: 't' })).toBe(2);
    expect(jsonLines(io.stderr)).toEqual([
      {
        error: 'missing_params',
        flag: '--goal',
        message: expect.stringContaining('nothing is asked with --json'),
      },
    ]);
  });
});

describe('compose flow rules', () => {
  it('asks the goal before compose only when refine follows, and builds each request', () => {
    const steps = ['compose', 'refine', 'score'] as const;
    expect(nextAction(steps, { topic: 't' }, {}, true)).toEqual({
      kind: 'ask',
      input: 'goal',
      step: 'compose',
    });
    expect(nextAction(['compose'], { topic: 't' }, {}, true)).toEqual({ kind: 'run', step: 'compose' });
    expect(nextAction(steps, { topic: 't', goal: 'authority' }, { compose: PREPARE })).toEqual({
      kind: 'ask',
      input: 'tone',
      step: 'refine',
    });
    expect(requestFor('score', { draft: 'd', hasMedia: true })).toEqual({
      step: 'score',
      draft: 'd',
      hasLink: false,
      hasMedia: true,
    });
  });
});

describe('ComposeForm', () => {
  it('asks topic, goal, tone and draft, shows each answer, and scores an edited draft again', async () => {
    const { runStep, calls } = fakeSteps();
    const ends: ComposeOutcome[] = [];
    const { lastFrame, stdin } = render(
      <ComposeForm
        steps={['compose', 'refine', 'score']}
        initial={{}}
        runStep={runStep}
        onEnd={(o) => ends.push(o)}
        color={false}
      />,
    );
    await shows(lastFrame, 'Topic:');
    stdin.write('small releases');
    await shows(lastFrame, 'Topic: small releases');
    stdin.write('\r');
    await shows(lastFrame, '1. engagement');
    stdin.write('3');
    await shows(lastFrame, 'Lead with the result');
    expect(lastFrame()).toContain('What changed for the reader?');
    stdin.write('casual');
    await shows(lastFrame, 'Tone: casual');
    stdin.write('\r');
    await shows(lastFrame, 'Open with a number');
    stdin.write('We ship faster');
    await shows(lastFrame, 'Draft: We ship faster');
    stdin.write('\r');
    await shows(lastFrame, 'Score: 1/2 checks passed');
    expect(lastFrame()).toContain('✗ Concrete number (say how much faster)');
    stdin.write('e');
    await vi.waitFor(() => expect(lastFrame()).not.toContain('Score:'), { timeout: 20_000, interval: 5 });
    await shows(lastFrame, 'Draft: We ship faster');
    for (let i = 0; i < 'faster'.length; i++) stdin.write('\u007f');
    await vi.waitFor(() => expect(lastFrame()).not.toContain('faster'), { timeout: 20_000, interval: 5 });
    stdin.write('3x faster');
    await shows(lastFrame, 'Draft: We ship 3x faster');
    stdin.write('\r');
    await shows(lastFrame, 'Score: 2/2 checks passed');
    expect(lastFrame()).toContain('Post it: https://x.com/intent/post?text=We%20ship%203x%20faster');
    stdin.write('q');
    await vi.waitFor(() => expect(ends).toHaveLength(1), { timeout: 20_000 });
    expect(ends[0]).toMatchObject({
      kind: 'done',
      inputs: { topic: 'small releases', goal: 'authority', tone: 'casual' },
    });
    expect(calls.map((c) => c.step)).toEqual(['compose', 'refine', 'score', 'score']);
    expect(calls[3]!.inputs.draft).toBe('We ship 3x faster');
  });

  it('does not ask what the flags gave, and ends cancelled on Ctrl-C', async () => {
    const { runStep, calls } = fakeSteps();
    const ends: ComposeOutcome[] = [];
    const { lastFrame, stdin } = render(
      <ComposeForm
        steps={['compose', 'refine', 'score']}
        initial={{ topic: 'x', goal: 'followers', tone: 'dry' }}
        runStep={runStep}
        onEnd={(o) => ends.push(o)}
        color={false}
      />,
    );
    await shows(lastFrame, 'Draft:');
    expect(calls.map((c) => c.step)).toEqual(['compose', 'refine']);
    stdin.write('\u0003');
    await vi.waitFor(() => expect(ends).toEqual([{ kind: 'cancelled' }]), { timeout: 20_000 });
  });
});

describe('compose on a terminal', () => {
  it('drives the form through the command streams and exits 130 on Ctrl-C', async () => {
    const { runStep } = fakeSteps();
    const io = fakeIo(true);
    const done = compose(
      contextFor(mockClient().client, io),
      parseComposeOptions({ step: 'score' }),
      runStep,
    );
    await vi.waitFor(() => expect(io.stdout.text()).toContain('Draft:'), { timeout: 20_000, interval: 5 });
    io.stdin.type('\u0003');
    expect(await done).toBe(130);
  });

  it('rethrows a service error after closing the form', async () => {
    const io = fakeIo(true);
    const failing = async () => {
      throw new Error('service down');
    };
    await expect(
      compose(contextFor(mockClient().client, io), parseComposeOptions({ ...ALL, step: 'compose' }), failing),
    ).rejects.toThrow('service down');
  });
});
