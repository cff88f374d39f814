import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';

/**
 * Asks for a secret on the terminal without echoing it (raw mode), the question on stderr. Only called
 * when stdin and stdout are terminals; Ctrl-C cancels.
 */
export function promptSecret(io: Pick<CliIO, 'stdin' | 'stderr'>, question: string): Promise<string> {
  const { stdin, stderr } = io;
  stderr.write(question);
  return new Promise((resolve, reject) => {
    let answer = '';
    const raw = typeof stdin.setRawMode === 'function';
    const done = (err?: Error) => {
      stdin.removeListener('data', onData);
      if (raw) stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write('\n');
      if (err) reject(err);
      else resolve(answer.trim());
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString()) {
        if (ch === '\u0003')
          return done(new CliError('cancelled', ExitCode.interrupted, undefined, 'cancelled'));
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done();
        if (ch === '\u007f' || ch === '\b') answer = answer.slice(0, -1);
        else answer += ch;
      }
    };
    if (raw) stdin.setRawMode?.(true);
    stdin.on('data', onData);
    stdin.resume();
  });
}
