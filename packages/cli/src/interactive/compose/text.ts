import type { ComposeResults } from './flow.js';

/**
 * The results of the steps as plain text (piped output without `--json`): what the form shows, without the
 * form.
 */
export function resultLines(results: ComposeResults): string[] {
  const out: string[] = [];
  const list = (title: string, items: readonly string[]) => {
    if (items.length === 0) return;
    out.push(`${title}:`, ...items.map((i) => `  - ${i}`));
  };
  if (results.compose) {
    const c = results.compose;
    list(
      'Writing rules',
      c.contentRules.map((r) => r.rule),
    );
    list('Answer before refining', c.followUpQuestions);
    list('Avoid', c.topPenalties);
    if (c.styleNote) out.push(`Style: ${c.styleNote}`);
  }
  if (results.refine) {
    list('Guidance', results.refine.compositionGuidance);
    list(
      'Patterns',
      results.refine.examplePatterns.map((p) => `${p.pattern}: ${p.description}`),
    );
  }
  if (results.score) {
    const s = results.score;
    out.push(`Score: ${s.passedCount}/${s.totalChecks} checks passed`);
    for (const c of s.checklist) {
      out.push(
        `  ${c.passed ? '✓' : '✗'} ${c.factor}${!c.passed && c.suggestion ? ` (${c.suggestion})` : ''}`,
      );
    }
    out.push(`Top suggestion: ${s.topSuggestion}`);
    if (s.intentUrl) out.push(`Post it: ${s.intentUrl}`);
  }
  return out;
}
