import { EXIT_CODE_MEANINGS } from '../exit-codes.js';
import { environmentHelp } from './environment.js';

/** `xsvc help <topic>`: what is not a command. */
export const HELP_TOPICS: Readonly<Record<string, () => string>> = {
  'exit-codes': () =>
    [
      'Exit codes of xsvc:',
      '',
      ...EXIT_CODE_MEANINGS.map(([code, meaning]) => `  ${String(code).padStart(3)}  ${meaning}`),
      '',
      "Errors print the service's error code, its message and what to do next on stderr (a JSON object with",
      '--json: {"error": code, "message", "status", "next", "retryAfter"}).',
    ].join('\n'),
  environment: environmentHelp,
  output: () =>
    [
      'Output:',
      '',
      '  On a terminal, listings are tables (long text cut to fit) and single answers `key  value` lines.',
      '  Piped, listings are tab-separated rows without a header, one item per line, nothing cut.',
      '  --json prints the answer as JSON, one shape per command: a listing prints its page object, also with',
      '  --all or --limit (then holding every item fetched, its cursor saying where it stopped).',
      '  --json id,text keeps these fields (of each item of a listing; dotted paths such as author.username).',
      '  --jq <filter> filters that JSON with jq (a JavaScript jq); string results print raw, one per line.',
      '  Progress, hints and the cursor to resume a listing go to stderr, never stdout, and only when stderr',
      '  is a terminal (piped, the --json page object carries the cursor).',
      '  --dry-run prints the request as a curl line and as @xsvc/sdk code, with the key as $XSVC_API_KEY.',
    ].join('\n'),
};
