/**
 * The real browser of the dashboard tests: Debian's Chromium driven by playwright-core (which never downloads
 * a browser), axe-core run inside each page, and a screenshot of each page kept as a test artifact.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * The Chromium to drive: `XSVC_CHROMIUM` when set (and only it), else `chromium` on the PATH (Debian's
 * package, which CI installs) or at `/usr/bin/chromium`; undefined when there is none (the browser tests then
 * skip, saying so).
 */
export function findChromium(): string | undefined {
  const candidates: string[] = [];
  if (process.env.XSVC_CHROMIUM) candidates.push(process.env.XSVC_CHROMIUM);
  else {
    try {
      candidates.push(execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim());
    } catch {
      /* not on the PATH */
    }
    candidates.push('/usr/bin/chromium');
  }
  for (const path of candidates) {
    if (!path) continue;
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      /* not there */
    }
  }
  return undefined;
}

/** Headless, offline (no update checks, sync or component downloads), in a throwaway profile. */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-quic',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/** Where the screenshots go (`packages/server/test-artifacts/dashboard`, ignored by git). */
export const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts/dashboard');

/** Creates the artifacts folder, with a `.gitignore` that keeps its content out of git. */
export function prepareArtifacts(): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, '../.gitignore'), '*\n');
}

/** Saves a full-page screenshot of the page as `<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** One axe-core violation, as the assertions report it. */
export interface Violation {
  readonly id: string;
  readonly impact: string | null | undefined;
  readonly help: string;
  readonly targets: string[];
}

/**
 * Runs axe-core (WCAG 2.0-2.2 A and AA, and best practices) in the page and answers the serious and critical
 * violations. The script goes in through the DevTools protocol, as the pages' CSP allows only their own.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axe.source);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
    }),
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => String(n.target)),
    }));
}

/** Whether the focused element shows a focus indicator (an outline or a box shadow), and what it is. */
export function focusedElement(page: Page): Promise<{ tag: string; text: string; visible: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: 'body', text: '', visible: false };
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2;
    const shadow = style.boxShadow !== 'none';
    const box = el.getBoundingClientRect();
    const onScreen = box.width > 0 && box.height > 0 && box.right > 0 && box.bottom > 0;
    return {
      tag: el.tagName.toLowerCase(),
      text: (el.textContent ?? '').trim(),
      visible: (outline || shadow) && onScreen,
    };
  });
}
