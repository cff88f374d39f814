import { corpus, type DocEntry } from './corpus.js';
import { terms } from './terms.js';

/** Field weights: a match in the name counts most, then identifiers, then the description and text. */
const WEIGHTS = { name: 3, keywords: 2, description: 1.5, text: 1 } as const;
type Field = keyof typeof WEIGHTS;

interface Indexed {
  readonly entry: DocEntry;
  readonly fields: Record<Field, Map<string, number>>;
}

function counts(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of terms(text)) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/**
 * How often a term occurs in a field: exact matches count fully, and words that extend it (`sign` in
 * `signature`) count half, so a question still meets the wording of the documentation.
 */
function frequency(field: Map<string, number>, term: string): number {
  let tf = field.get(term) ?? 0;
  if (term.length >= 4) {
    for (const [word, n] of field) if (word !== term && word.startsWith(term)) tf += n / 2;
  }
  return tf;
}

let index: { docs: Indexed[]; idf: (term: string) => number } | undefined;

function build() {
  const docs = corpus().map((entry) => ({
    entry,
    fields: {
      name: counts(entry.label),
      keywords: counts(entry.keywords),
      description: counts(entry.description),
      text: counts(entry.text),
    },
  }));
  const df = new Map<string, number>();
  for (const d of docs) {
    const seen = new Set(Object.values(d.fields).flatMap((m) => [...m.keys()]));
    for (const t of seen) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const n = docs.length;
  const idf = (term: string) => {
    const f = df.get(term) ?? [...df].filter(([w]) => w.startsWith(term)).reduce((sum, [, c]) => sum + c, 0);
    return Math.log(1 + (n - f + 0.5) / (f + 0.5));
  };
  return { docs, idf };
}

/** A ranked match. */
export interface Hit {
  readonly entry: DocEntry;
  readonly score: number;
}

/**
 * Ranks the documentation for a question by term matching: each query term found in an entry adds its
 * rarity (idf) times a saturated count, weighted by the field it was found in. Best first, ties by name.
 */
export function search(query: string, limit = 10): Hit[] {
  if (!index) index = build();
  const { docs, idf } = index;
  const q = [...new Set(terms(query))];
  if (!q.length) return [];
  const hits: Hit[] = [];
  for (const d of docs) {
    let score = 0;
    let matched = 0;
    for (const t of q) {
      let termScore = 0;
      for (const field of Object.keys(WEIGHTS) as Field[]) {
        const tf = frequency(d.fields[field], t);
        if (tf) termScore += WEIGHTS[field] * (tf / (tf + 1.2));
      }
      if (termScore) {
        matched++;
        score += termScore * idf(t);
      }
    }
    // Entries matching more of the question rank above those matching one word many times.
    if (score > 0) hits.push({ entry: d.entry, score: score * (matched / q.length) });
  }
  return hits.sort((a, b) => b.score - a.score || a.entry.name.localeCompare(b.entry.name)).slice(0, limit);
}
