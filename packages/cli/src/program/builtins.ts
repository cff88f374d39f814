import { Argument, type Command, Option } from 'commander';
import { UsageError } from '../errors.js';
import { choiceParser } from './choice-parser.js';
import { globalsOf } from './globals.js';
import { HELP_TOPICS } from './help-topics.js';
import type { RunState } from './run-state.js';

const SHELLS = ['bash', 'zsh', 'fish'];
const COMPLETION_EXAMPLES = [
  '',
  'Examples:',
  '  $ source <(xsvc completion bash)        # bash, in ~/.bashrc',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh syntax
  '  $ xsvc completion zsh > "${fpath[1]}/_xsvc"',
  '  $ xsvc completion fish > ~/.config/fish/completions/xsvc.fish',
  '',
].join('\n');

/**
 * The commands that are not operations: login, logout, profiles, completion, help, and `write-actions
 * watch`. Their code is loaded only when they run.
 */
export function registerBuiltins(program: Command, state: RunState, wants: (name: string) => boolean): void {
  program
    .command('login')
    .summary('Save an API key in a profile, checked with the service first')
    .description(
      'Saves an API key (checked with GET /account first) in a profile of the config file, readable by you only (0600).',
    )
    .option('--api-key <key>', 'The key (`-` reads it from stdin); asked for on a terminal when omitted.')
    .addHelpText(
      'after',
      '\nExamples:\n  $ xsvc login\n  $ xsvc login --profile local --base-url http://127.0.0.1:8787 --api-key - < key.txt\n',
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const { login } = await import('../commands/login.js');
      await login(state, globalsOf(cmd, state), cmd.opts());
    });

  const whoamiHelp =
    '\nExamples:\n  $ xsvc whoami\n  $ xsvc whoami --profile staging\n  $ xsvc auth status --json';
  const showWhoami = async (_opts: unknown, cmd: Command) => {
    const { whoami } = await import('../commands/whoami.js');
    await whoami(state, globalsOf(cmd, state));
  };
  program
    .command('whoami')
    .summary('Show the account, plan, key and base URL in use')
    .description(
      'Checks the key in use with the service (GET /account) and shows the account, its plan and credits,\n' +
        'the key (masked), the base URL, the profile, and where the key and the base URL came from\n' +
        '(XSVC_API_KEY, a profile of the config file, --base-url, XSVC_BASE_URL). Exit code 4 without a\n' +
        'key or when the service refuses it.',
    )
    .addHelpText('after', whoamiHelp)
    .action(showWhoami);
  const auth = program.command('auth').summary('status');
  if (wants('auth')) {
    auth
      .description('How you are signed in: `xsvc auth status` (the same as `xsvc whoami`).')
      .helpCommand(false);
    auth
      .command('status')
      .summary('Show the account, plan, key and base URL in use (as `xsvc whoami`)')
      .addHelpText('after', whoamiHelp)
      .action(showWhoami);
  }

  program
    .command('logout')
    .summary('Remove the API key of a profile')
    .addHelpText('after', '\nExample:\n  $ xsvc logout --profile local\n')
    .action(async (_opts: unknown, cmd: Command) => {
      const { logout } = await import('../commands/profiles.js');
      await logout(state, globalsOf(cmd, state));
    });

  const profiles = program.command('profiles').summary('list, use, remove');
  if (wants('profiles')) {
    profiles.description('Saved profiles: an API key and a base URL under a name.');
    profiles
      .command('list')
      .summary('List the saved profiles')
      .addHelpText('after', '\nExample:\n  $ xsvc profiles list\n')
      .action(async (_opts: unknown, cmd: Command) => {
        const { listProfiles } = await import('../commands/profiles.js');
        await listProfiles(state, globalsOf(cmd, state));
      });
    profiles
      .command('use')
      .argument('<name>', 'Profile to make current.')
      .summary('Make a profile the current one')
      .addHelpText('after', '\nExample:\n  $ xsvc profiles use local\n')
      .action(async (name: string, _opts: unknown, cmd: Command) => {
        const { useProfile } = await import('../commands/profiles.js');
        await useProfile(state, globalsOf(cmd, state), name);
      });
    profiles
      .command('remove')
      .argument('<name>', 'Profile to delete.')
      .summary('Delete a profile and its key')
      .addHelpText('after', '\nExample:\n  $ xsvc profiles remove old\n')
      .action(async (name: string, _opts: unknown, cmd: Command) => {
        const { removeProfile } = await import('../commands/profiles.js');
        await removeProfile(state, globalsOf(cmd, state), name);
      });
  }

  const api = program
    .command('api')
    .summary("Send any request to the service with the profile's key (the raw escape hatch)");
  if (wants('api')) {
    const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];
    api
      .description(
        'Sends a request to any path of the service with the key of the profile, and prints the JSON answer.\n' +
          'Fields go to the query of a GET or DELETE, to a JSON body otherwise; the method is POST when a body\n' +
          'is sent and none is named. --paginate follows both cursor styles (after/nextCursor and\n' +
          'cursor/next_cursor) and prints one page object holding every item.',
      )
      .argument('<method-or-path>', 'GET, POST, PUT, PATCH or DELETE, then the path; or the path alone.')
      .argument('[path]', 'The path on the service, e.g. /api/v1/x/tweets/search.')
      .option('-X, --method <method>', 'The HTTP method (default GET, or POST with a body).')
      .option('-f, --raw-field <key=value>', 'A field as text (repeatable).', collect)
      .option(
        '-F, --field <key=value>',
        'A typed field: true, false, null, numbers, @file for its text (repeatable).',
        collect,
      )
      .option('-H, --header <name:value>', 'An extra request header (repeatable).', collect)
      .option('--input <file>', 'A JSON body from a file, or - for stdin (fields are added to it).')
      .option('--paginate', 'Follow every page of a GET listing.')
      .addHelpText(
        'after',
        '\nExamples:\n  $ xsvc api GET /api/v1/x/tweets/search -f q=hello --paginate\n  $ xsvc api /api/v1/account --jq .plan\n  $ xsvc api POST /api/v1/monitors --input monitor.json\n',
      )
      .action(async (first: string, second: string | undefined, _opts: unknown, cmd: Command) => {
        const { apiRequest } = await import('../commands/api.js');
        await apiRequest(
          state,
          globalsOf(cmd, state),
          second === undefined ? [first] : [first, second],
          cmd.opts(),
        );
      });
  }

  program
    .command('completion')
    .summary('Print a shell completion script (bash, zsh, fish)')
    .addArgument(new Argument('<shell>', 'The shell.').choices(SHELLS).argParser(choiceParser(SHELLS)))
    .description('Prints a completion script generated from the command table.')
    .addHelpText('after', COMPLETION_EXAMPLES)
    .action(async (shell: string) => {
      const { completionScript } = await import('../completion/script.js');
      state.io.stdout.write(completionScript(shell, program));
    });

  program
    .command('help')
    .argument('[topic...]', `A command, or a topic: ${Object.keys(HELP_TOPICS).join(', ')}.`)
    .summary('Show help for a command or a topic (exit-codes, environment, output)')
    .action((words: string[]) => {
      if (words.length === 0) {
        program.outputHelp();
        return;
      }
      const topic = HELP_TOPICS[words.join(' ')];
      if (topic) {
        state.io.stdout.write(`${topic()}\n`);
        return;
      }
      let cmd: Command | undefined = program;
      for (const w of words) cmd = cmd?.commands.find((c) => c.name() === w);
      if (!cmd) {
        throw new UsageError(
          `no command or help topic "${words.join(' ')}"`,
          `Topics: ${Object.keys(HELP_TOPICS).join(', ')}. Commands: xsvc --help.`,
        );
      }
      cmd.outputHelp();
    });

  const writeActions = program.commands.find((c) => c.name() === 'write-actions');
  if (writeActions) {
    writeActions.summary(`${writeActions.summary()}, watch`);
    if (wants('write-actions')) {
      writeActions
        .command('watch')
        .argument('<id>', 'The write action id (printed by a write, or `writeActionId` of a 202).')
        .summary('Wait for a durable write to be final, showing its progress')
        .addOption(
          new Option(
            '--wait-timeout <seconds>',
            'How long to wait before reporting it pending (default 120).',
          ),
        )
        .addHelpText('after', '\nExample:\n  $ xsvc write-actions watch wa_123\n')
        .action(async (id: string, _opts: unknown, cmd: Command) => {
          const { watchWriteAction } = await import('../commands/watch.js');
          await watchWriteAction(state, globalsOf(cmd, state), id, cmd.opts());
        });
    }
  }
}
