/** A documentation page the server ships: served at `/docs/{slug}.md` and searched by `/ask`. */
export interface Guide {
  readonly slug: string;
  readonly title: string;
  /** One sentence: shown in `/ask` results and the index. */
  readonly summary: string;
  /** Markdown, without the title line. */
  readonly body: string;
}

/** The page as served: a title line, the summary, the body. */
export function renderGuide(guide: Guide): string {
  return `# ${guide.title}\n\n${guide.summary}\n\n${guide.body.trim()}\n`;
}
