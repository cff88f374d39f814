import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { TextInput } from '../../src/interactive/views/text-input.js';

/** A text field whose submissions are recorded. */
function field() {
  const submitted: string[] = [];
  const view = render(
    <TextInput label="Topic:" onSubmit={(v) => submitted.push(v)} onCancel={() => {}} color={false} />,
  );
  return { ...view, submitted };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('TextInput', () => {
  it('a paste of text and Enter together submits once, without a second Enter', async () => {
    const { stdin, submitted } = field();
    await settle();
    stdin.write('small releases\r');
    await vi.waitFor(() => expect(submitted).toEqual(['small releases']), { timeout: 5000, interval: 5 });
    await settle();
    expect(submitted).toEqual(['small releases']);
  });

  it('a pasted multi-line text becomes one line; its final line break submits it', async () => {
    const { stdin, submitted } = field();
    await settle();
    stdin.write('one\ntwo\r\n');
    await vi.waitFor(() => expect(submitted).toEqual(['one two']), { timeout: 5000, interval: 5 });
  });

  it('a paste without a line break waits for Enter; an empty paste and Enter submit nothing', async () => {
    const { stdin, submitted, lastFrame } = field();
    await settle();
    stdin.write('\r');
    stdin.write('half a thought');
    await vi.waitFor(() => expect(lastFrame()).toContain('Topic: half a thought'), {
      timeout: 5000,
      interval: 5,
    });
    expect(submitted).toEqual([]);
    stdin.write('\r');
    await vi.waitFor(() => expect(submitted).toEqual(['half a thought']), { timeout: 5000, interval: 5 });
  });
});
