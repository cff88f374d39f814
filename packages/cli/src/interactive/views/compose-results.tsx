import { Box, Text } from 'ink';
import type { ComposeResults } from '../compose/flow.js';
import { dim, paint } from './paint.js';

function List({ title, items }: { readonly title: string; readonly items: readonly string[] }) {
  if (items.length === 0) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>{title}</Text>
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: items may repeat; their order is fixed
        <Text key={i}>{`  • ${item}`}</Text>
      ))}
    </Box>
  );
}

/** The answers of the steps so far: rules and questions, guidance, then the draft's score. */
export function ComposeResultsView({
  results,
  draft,
  color,
}: {
  readonly results: ComposeResults;
  readonly draft?: string | undefined;
  readonly color: boolean;
}) {
  const { compose, refine, score } = results;
  return (
    <Box flexDirection="column">
      {compose ? (
        <>
          <List title="Writing rules" items={compose.contentRules.slice(0, 5).map((r) => r.rule)} />
          <List title="Answer these before refining" items={compose.followUpQuestions} />
          <List title="Avoid" items={compose.topPenalties.slice(0, 3)} />
        </>
      ) : null}
      {refine ? (
        <>
          <List title="Guidance" items={refine.compositionGuidance} />
          <List
            title="Patterns"
            items={refine.examplePatterns.slice(0, 3).map((p) => `${p.pattern}: ${p.description}`)}
          />
        </>
      ) : null}
      {score ? (
        <Box flexDirection="column" marginTop={1}>
          {draft ? <Text>{`Draft: ${draft}`}</Text> : null}
          <Text bold {...paint(color, score.passed ? 'green' : 'yellow')}>
            {`Score: ${score.passedCount}/${score.totalChecks} checks passed`}
          </Text>
          {score.checklist.map((c) => (
            <Text key={c.factor}>
              <Text {...paint(color, c.passed ? 'green' : 'red')}>{c.passed ? '  ✓ ' : '  ✗ '}</Text>
              {c.factor}
              {!c.passed && c.suggestion ? <Text {...dim(color)}>{` (${c.suggestion})`}</Text> : null}
            </Text>
          ))}
          <Text>{`Top suggestion: ${score.topSuggestion}`}</Text>
          {score.intentUrl ? <Text {...paint(color, 'green')}>{`Post it: ${score.intentUrl}`}</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}
