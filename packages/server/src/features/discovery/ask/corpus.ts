import { type AnyOperation, operations } from '@xsvc/sdk/contract';
import { type Guide, guides } from '../docs/index.js';

/** One searchable entry: an operation of the contract or a section of a guide. */
export interface DocEntry {
  readonly kind: 'operation' | 'guide';
  /** Shown in results. */
  readonly name: string;
  /** Searched as the name: the section heading of a guide section, otherwise the name. */
  readonly label: string;
  readonly description: string;
  /** Everything searchable beyond the name and description. */
  readonly text: string;
  /** Identifiers and labels (operation id, path, tag, SDK path), weighted between name and text. */
  readonly keywords: string;
  /** Where the entry lives, relative to the origin. */
  readonly path: string;
  readonly operation?: {
    readonly operationId: string;
    readonly method: string;
    readonly path: string;
    readonly tag: string;
  };
}

/** A JSON pointer to an operation of `/openapi.json`, as a URI fragment. */
function pointer(op: AnyOperation): string {
  return `/openapi.json#/paths/${encodeURIComponent(op.path.replace(/~/g, '~0').replace(/\//g, '~1'))}/${op.method.toLowerCase()}`;
}

/** Markdown to searchable text: code marks, links and table rules removed. */
const plain = (md: string) =>
  md
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\|?\s*-{3,}\s*\|?/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** A GitHub-style heading anchor. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .trim()
    .replace(/\s+/g, '-');

function guideEntries(guide: Guide): DocEntry[] {
  const [intro = '', ...sections] = guide.body.split(/^## /m);
  const out: DocEntry[] = [
    {
      kind: 'guide',
      name: guide.title,
      label: guide.title,
      description: guide.summary,
      text: plain(intro),
      keywords: guide.slug,
      path: `/docs/${guide.slug}.md`,
    },
  ];
  for (const section of sections) {
    const [heading = '', ...rest] = section.split('\n');
    const body = plain(rest.join('\n'));
    out.push({
      kind: 'guide',
      name: `${guide.title}: ${heading.trim()}`,
      label: heading,
      description: body.length > 280 ? `${body.slice(0, 277)}...` : body,
      text: body,
      keywords: `${guide.slug} ${guide.title}`,
      path: `/docs/${guide.slug}.md#${anchor(heading)}`,
    });
  }
  return out;
}

function operationEntry(op: AnyOperation): DocEntry {
  return {
    kind: 'operation',
    name: op.summary,
    label: op.summary,
    description: `${op.method} ${op.path}${op.description ? `: ${plain(op.description)}` : ''}`,
    text: plain(op.description ?? ''),
    keywords: [op.id, op.path, op.tag, ...op.sdk, op.writeAction ?? ''].join(' '),
    path: pointer(op),
    operation: { operationId: op.id, method: op.method, path: op.path, tag: op.tag },
  };
}

let built: readonly DocEntry[] | undefined;

/** The documentation `/ask` searches: every operation's summary and description, and the shipped guides. */
export function corpus(): readonly DocEntry[] {
  built ??= [...guides.flatMap(guideEntries), ...(operations as readonly AnyOperation[]).map(operationEntry)];
  return built;
}
