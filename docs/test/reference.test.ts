import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AnyOperation, operations } from '@xsvc/sdk/contract';
import { describe, expect, it } from 'vitest';
import {
  content,
  DOCS_DIR,
  deprecationRows,
  generate,
  referenceFilesOnDisk,
  replaceRegion,
  shellWords,
} from '../scripts/generate-reference.js';

describe('the operation reference generated from the contract', () => {
  it('is up to date on disk (run `pnpm generate` when this fails)', async () => {
    const files = await generate();
    const stale = [...files].filter(
      ([path, text]) => content(readFileSync(join(DOCS_DIR, path), 'utf8')) !== content(text),
    );
    expect(stale.map(([path]) => path)).toEqual([]);
    const extra = referenceFilesOnDisk().filter((f) => !files.has(f));
    expect(extra).toEqual([]);
  });

  it('has one page per operation with parameters, response, errors, cost and the call four ways', async () => {
    const files = await generate();
    for (const op of operations as readonly AnyOperation[]) {
      const page = files.get(`reference/${op.id}.md`);
      expect(page, op.id).toBeDefined();
      for (const part of [
        '## Parameters',
        '## Response',
        '## Errors',
        '**Cost**',
        '**SDK**',
        '**CLI**',
        '**curl**',
        '**MCP**',
      ])
        expect(page, `${op.id}: ${part}`).toContain(part);
      expect(page).toContain(`\`${op.method} ${op.path}\``);
      const sdkPath = op.sdk.join('.');
      expect(page, op.id).toContain(`xsvc.${sdkPath}(`);
      for (const code of op.errors) expect(page, `${op.id}: ${code}`).toContain(`\`${code}\``);
    }
    expect(files.get('reference/searchTweets.md')).toMatch(
      /"name": "tweets",\n\s+"arguments": \{\n\s+"action": "search"/,
    );
    expect(files.get('reference/createApiKey.md')).toContain('**MCP**: not served as a tool');
  });

  it('lists the values of every enum, long ones in the description', async () => {
    const files = await generate();
    for (const [path, text] of files) expect(text, path).not.toMatch(/enum \(\d+ values\)/);
    const extraction = files.get('reference/createExtraction.md')!;
    const row = extraction.split('\n').find((l) => l.startsWith('| `toolType`'))!;
    expect(row).toMatch(/\| enum \|/);
    expect(row).toContain('One of: `article_extractor`, ');
    expect(row).toContain('`post_extractor`');
    const monitor = files.get('reference/createMonitor.md')!;
    expect(monitor.split('\n').find((l) => l.startsWith('| `eventTypes`'))).toMatch(
      /\| array of enum \|.*Each one of: `tweet\.new`/,
    );
  });

  it('lists the contract deprecations in the deprecation policy page', () => {
    const rows = deprecationRows();
    for (const item of ['`monitorsAllowed` field', '`includeRaw` parameter', '`after` parameter'])
      expect(rows).toContain(item);
    expect(() => replaceRegion('no region', 'deprecations', rows)).toThrow(/generated:deprecations/);
    expect(replaceRegion('a\n<!-- generated:x -->\nold\n<!-- /generated:x -->\nb', 'x', 'new')).toBe(
      'a\n<!-- generated:x -->\nnew\n<!-- /generated:x -->\nb',
    );
  });

  it('compares pages by content, not layout', () => {
    expect(content('| a | b |\n|---|---|\n| 1 | 2 |')).toBe(
      content('| a   | b   |\n| --- | --- |\n| 1   | 2   |'),
    );
    expect(content('f({ a: 1, b: 2 });')).toBe(content('f({\n  a: 1,\n  b: 2,\n});'));
    expect(content('| a | 1 |')).not.toBe(content('| a | 2 |'));
  });

  it('splits example command lines as a shell does', () => {
    expect(shellWords(`styles save my_voice --label "My voice" --tweets '[{"text":"Ship it."}]'`)).toEqual([
      'styles',
      'save',
      'my_voice',
      '--label',
      'My voice',
      '--tweets',
      '[{"text":"Ship it."}]',
    ]);
    expect(shellWords('a "b \\"c\\"" d\\ e')).toEqual(['a', 'b "c"', 'd e']);
    expect(() => shellWords("a 'b")).toThrow(/unterminated/);
  });
});
