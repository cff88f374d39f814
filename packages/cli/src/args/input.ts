import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { CliIO } from '../io.js';

/** Reads the whole of stdin as text. */
export async function readStdin(io: Pick<CliIO, 'stdin'>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads stdin at most once per run: a second `-` would silently get nothing. */
export class InputReader {
  private stdinTakenBy: string | undefined;

  constructor(private readonly io: Pick<CliIO, 'stdin' | 'cwd'>) {}

  /**
   * The text a value stands for: `-` reads stdin, `@path` reads a file (relative to the working
   * directory), anything else is the text itself. Errors name `flag`.
   */
  async text(value: string, flag: string): Promise<string> {
    if (value === '-') {
      if (this.stdinTakenBy !== undefined) {
        throw new UsageError(
          `${flag} and ${this.stdinTakenBy} both read stdin`,
          'Only one flag can be -.',
          'invalid_input',
          flag,
        );
      }
      if (this.io.stdin.isTTY) {
        throw new UsageError(
          `${flag} -: stdin is a terminal`,
          `Pipe the JSON in, or pass ${flag} @file.json.`,
          'invalid_input',
          flag,
        );
      }
      this.stdinTakenBy = flag;
      return readStdin(this.io);
    }
    if (value.startsWith('@')) {
      const path = resolve(this.io.cwd, value.slice(1));
      try {
        return await readFile(path, 'utf8');
      } catch (err) {
        throw new UsageError(
          `${flag}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
          undefined,
          'invalid_input',
          flag,
        );
      }
    }
    return value;
  }

  /** The JSON a value stands for (see {@link text}). */
  async json(value: string, flag: string): Promise<unknown> {
    const text = await this.text(value, flag);
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new UsageError(
        `${flag}: not valid JSON (${(err as Error).message})`,
        undefined,
        'invalid_json',
        flag,
      );
    }
  }
}
