import { Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import { dim } from './paint.js';

/** Props of {@link TextInput}. */
export interface TextInputProps {
  readonly label: string;
  readonly hint?: string | undefined;
  readonly initial?: string | undefined;
  readonly onSubmit: (value: string) => void;
  /** Ctrl-C or Esc. */
  readonly onCancel: () => void;
  readonly color: boolean;
}

/** Drops the last character (a whole code point, so an emoji goes at once). */
function dropLast(s: string): string {
  return Array.from(s).slice(0, -1).join('');
}

/**
 * A one-line text field: typing and pasting append (a pasted line break becomes a space; a paste ending
 * with one submits, as its Enter), Backspace deletes, Ctrl-U clears, Enter submits a non-empty value, Esc or
 * Ctrl-C cancels.
 */
export function TextInput({ label, hint, initial, onSubmit, onCancel, color }: TextInputProps) {
  const [value, setValue] = useState(initial ?? '');
  // The handler may be the one of an earlier render (see useLatest): it works on this ref, not on `value`.
  const current = useRef(value);
  const update = (next: string) => {
    current.current = next;
    setValue(next);
  };
  useInput((input, key) => {
    if ((key.ctrl && input === 'c') || key.escape) onCancel();
    else if (key.return) {
      if (current.current.trim() !== '') onSubmit(current.current.trim());
    } else if (key.backspace || key.delete) update(dropLast(current.current));
    else if (key.ctrl && input === 'u') update('');
    else if (!key.ctrl && !key.meta && input !== '') {
      // A paste arrives as one chunk: text ending with a newline is text and Enter, submitted at once.
      const entered = /[\r\n]$/.test(input);
      const text = input
        .replace(/[\r\n]+$/, '')
        .replace(/[\r\n]+/g, ' ')
        // biome-ignore lint/suspicious/noControlCharactersInRegex: pasted control bytes are dropped
        .replace(/[\u0000-\u001f\u007f]/g, '');
      update(current.current + text);
      if (entered && current.current.trim() !== '') onSubmit(current.current.trim());
    }
  });
  return (
    <Text>
      <Text bold>{label}</Text> {value}
      <Text inverse> </Text>
      {hint && value === '' ? <Text {...dim(color)}> {hint}</Text> : null}
    </Text>
  );
}
