import {
  composeGoals,
  composeMediaTypes,
  composeSteps,
  drawExportTypes,
  drawFlags,
  exportFormats,
  extractionFlags,
  extractionTools,
  triggerTypes,
} from './contract-options.generated.js';
import type { InteractiveCommandSpec, InteractiveOptionSpec } from './types.js';

/**
 * The interactive commands, as a table the command layer registers with commander. This module loads no
 * package at start (not ink or react, not even the contract: what it needs of the contract is generated
 * into `contract-options.generated.ts`); each runner loads through `load()` when its command runs, so
 * `xsvc --help` stays fast.
 */

const opt = (
  flag: string,
  key: string,
  description: string,
  extra: Partial<Pick<InteractiveOptionSpec, 'type' | 'required' | 'choices'>> = {},
): InteractiveOptionSpec => ({ flag, key, description, type: 'string', required: false, ...extra });

const streamScope: readonly InteractiveOptionSpec[] = [
  opt('--monitor <id>', 'monitor', 'Only events of this account monitor.'),
  opt('--keyword-monitor <id>', 'keywordMonitor', 'Only events of this keyword monitor.'),
  opt('--since <eventId>', 'since', 'Start after this event (default: after the newest event at start).'),
];

const exportOptions = (what: string): InteractiveOptionSpec[] => [
  opt('--export <file>', 'export', `Save ${what} to this file (format from its extension, or --format).`),
  opt('--format <format>', 'format', `Export format (default: from the --export file name).`, {
    choices: exportFormats,
  }),
];

const secretOption = opt(
  '--secret <hex>',
  'secret',
  'Signing secret, hex (default: XSVC_WEBHOOK_SECRET, else a new one is generated and printed).',
);

/** Every interactive command. */
export const interactiveCommands: readonly InteractiveCommandSpec[] = [
  {
    name: 'monitors watch',
    description: 'Watch monitor events live as they arrive (JSON Lines when piped or with --json).',
    arguments: [],
    options: streamScope,
    examples: ['monitors watch', 'monitors watch --monitor 1900000000000000100 --json | jq .type'],
    load: () => import('./monitors-watch.js'),
  },
  {
    name: 'extractions run',
    description:
      'Start an extraction job; with --wait show its progress, then export the results (--export <file>).',
    arguments: [
      {
        name: 'tool',
        key: 'tool',
        description: 'Extraction tool to run.',
        required: true,
        choices: extractionTools,
      },
    ],
    options: [
      ...extractionFlags,
      opt('--wait', 'wait', 'Wait until the job finishes, showing its progress (implied by --export).', {
        type: 'boolean',
      }),
      ...exportOptions('the results'),
    ],
    examples: [
      'extractions run follower_explorer --target-username jack --results-limit 500 --wait',
      'extractions run reply_extractor --target-tweet-id 20 --export replies.xlsx',
    ],
    load: () => import('./extractions-run.js'),
  },
  {
    name: 'draws run',
    description:
      'Draw giveaway winners from the replies of a tweet and show entries, valid entries and winners.',
    arguments: [
      {
        name: 'tweet-url',
        key: 'tweetUrl',
        description: 'Status URL of the giveaway tweet (x.com or twitter.com).',
        required: true,
      },
    ],
    options: [
      ...drawFlags,
      ...exportOptions('the winners (or the entries, with --export-type entries)'),
      opt('--export-type <type>', 'exportType', 'What to export: winners (default) or entries.', {
        choices: drawExportTypes,
      }),
    ],
    examples: [
      'draws run https://x.com/jack/status/20 --winner-count 3 --backup-count 1 --must-retweet',
      'draws run https://x.com/jack/status/20 --required-hashtags "#giveaway" --export winners.csv',
    ],
    load: () => import('./draws-run.js'),
  },
  {
    name: 'draws verify',
    description:
      'Re-run a draw from its revealed seed and its entries export, and confirm or refute its winners (exit 1 when refuted).',
    arguments: [{ name: 'id', key: 'id', description: 'Id of the draw to verify.', required: true }],
    options: [
      opt(
        '--entries <file>',
        'entries',
        'A saved JSON entries export (`draws export <id> --type entries --format json`) instead of downloading it.',
      ),
      opt(
        '--commitment <id>',
        'commitment',
        'The draw commitment the organiser published (`draws commit`): the draw must have used it.',
      ),
      opt(
        '--seed-hash <hex>',
        'seedHash',
        'The seed hash the organiser published: the draw must have used it.',
      ),
      opt(
        '--entropy-hash <hex>',
        'entropyHash',
        "The hash of the organiser's entropy, as published: the draw's entropy must hash to it.",
      ),
    ],
    examples: [
      'draws verify 0192f3c4-0000-7000-8000-000000000001',
      'draws verify <id> --json | jq .ok',
      'draws verify <id> --commitment <commitment-id> --seed-hash <published seedHash>',
    ],
    load: () => import('./draws-verify.js'),
  },
  {
    name: 'compose',
    description:
      'Write a post with the compose tool: topic and goal, rules and questions, guidance, then score the draft.',
    arguments: [],
    options: [
      opt('--step <step>', 'step', 'Run only this step (default: all three).', {
        choices: composeSteps,
      }),
      opt('--topic <text>', 'topic', 'What the post is about (compose and refine).'),
      opt('--goal <goal>', 'goal', 'What the post should achieve (refine).', {
        choices: composeGoals,
      }),
      opt('--style-username <username>', 'styleUsername', 'Cached style to write like (compose).'),
      opt('--tone <tone>', 'tone', 'Voice of the post, e.g. casual or technical (refine).'),
      opt('--media-type <type>', 'mediaType', 'Media planned with the post (refine).', {
        choices: composeMediaTypes,
      }),
      opt('--call-to-action <text>', 'callToAction', 'What readers should do after reading (refine).'),
      opt('--additional-context <text>', 'additionalContext', 'Anything else the guidance should consider.'),
      opt('--draft <text>', 'draft', 'The draft to score (score).'),
      opt('--has-link', 'hasLink', 'The post will carry a link (score).', { type: 'boolean' }),
      opt('--has-media', 'hasMedia', 'The post will carry media (score).', { type: 'boolean' }),
    ],
    examples: [
      'compose',
      'compose --topic "small releases" --goal engagement --tone casual --draft "We ship 3x faster" --json',
      'compose --step score --draft "We ship 3x faster now"',
    ],
    load: () => import('./compose.js'),
  },
  {
    name: 'webhooks listen',
    description: 'Forward monitor events to a local endpoint as signed deliveries, showing each answer.',
    arguments: [],
    options: [
      opt('--forward-to <url>', 'forwardTo', 'Local endpoint to POST deliveries to.', { required: true }),
      opt('--events <types...>', 'events', 'Only these event types (space- or comma-separated).', {
        type: 'string[]',
      }),
      secretOption,
      ...streamScope,
    ],
    examples: [
      'webhooks listen --forward-to http://127.0.0.1:3000/hook',
      'webhooks listen --forward-to http://localhost:8080/webhooks --events tweet.new tweet.reply',
    ],
    load: () => import('./webhooks-listen.js'),
  },
  {
    name: 'webhooks trigger',
    description: 'Send a signed sample delivery of an event type to a local endpoint (or print it).',
    arguments: [
      {
        name: 'event-type',
        key: 'eventType',
        description: 'One of the 21 event types, or webhook.test.',
        required: true,
        choices: triggerTypes,
      },
    ],
    options: [
      opt('--forward-to <url>', 'forwardTo', 'Endpoint to POST the delivery to (else it is printed).'),
      secretOption,
    ],
    examples: [
      'webhooks trigger tweet.reply --forward-to http://127.0.0.1:3000/hook',
      'webhooks trigger profile.bio.changed --secret $XSVC_WEBHOOK_SECRET',
    ],
    load: () => import('./webhooks-trigger.js'),
  },
  {
    name: 'server start',
    description: 'Run the service locally (needs @xsvc/server): SQLite and a simulated platform by default.',
    arguments: [],
    options: [
      opt('--port <port>', 'port', 'Port to listen on (default: PORT, else 8787; 0 picks a free one).', {
        type: 'number',
      }),
      opt('--host <host>', 'host', 'Interface to listen on (default: HOST, else 127.0.0.1).'),
      opt(
        '--database-url <url>',
        'databaseUrl',
        'SQLite file, :memory: or postgres:// URL (default: DATABASE_URL).',
      ),
    ],
    examples: ['server start', 'server start --port 8080 --database-url postgres://localhost/xsvc'],
    load: () => import('./server-start.js'),
  },
];

export type {
  InteractiveArgumentSpec,
  InteractiveCommand,
  InteractiveCommandSpec,
  InteractiveContext,
  InteractiveIO,
  InteractiveModule,
  InteractiveOptionSpec,
  RawOptions,
} from './types.js';
