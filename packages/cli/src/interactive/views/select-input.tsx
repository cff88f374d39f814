import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import { paint } from './paint.js';

/** Props of {@link SelectInput}. */
export interface SelectInputProps<T extends string> {
  readonly label: string;
  readonly options: readonly T[];
  readonly onSubmit: (value: T) => void;
  readonly onCancel: () => void;
  readonly color: boolean;
}

/** A choice among a few options: arrows (or j/k) move, a digit picks directly, Enter confirms. */
export function SelectInput<T extends string>({
  label,
  options,
  onSubmit,
  onCancel,
  color,
}: SelectInputProps<T>) {
  const [index, setIndex] = useState(0);
  const current = useRef(0);
  const n = options.length;
  const move = (by: number) => {
    current.current = (current.current + by + n) % n;
    setIndex(current.current);
  };
  useInput((input, key) => {
    if ((key.ctrl && input === 'c') || key.escape) onCancel();
    else if (key.upArrow || input === 'k') move(-1);
    else if (key.downArrow || input === 'j') move(1);
    else if (key.return) onSubmit(options[current.current]!);
    else if (/^[1-9]$/.test(input) && Number(input) <= n) onSubmit(options[Number(input) - 1]!);
  });
  return (
    <Box flexDirection="column">
      <Text bold>{label}</Text>
      {options.map((o, i) => (
        <Text key={o} {...(i === index ? paint(color, 'cyan') : {})}>
          {`${i === index ? '❯' : ' '} ${i + 1}. ${o}`}
        </Text>
      ))}
    </Box>
  );
}
