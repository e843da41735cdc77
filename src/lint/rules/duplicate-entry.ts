import type { LoadedEntry } from '../../emit/wiki.js';
import { exampleEntry, wikiFile } from '../entry-info.js';
import { bestNameSimilarity, cosine } from '../similarity.js';
import type { FindingDraft, LintInput, LintRule } from '../types.js';

/** Names alone: equal after normalizing (plural, case, punctuation), or an alias equal to a title. */
const NAME_ALONE = 0.9;
/** Names alike and the summaries close in embedding space. */
const NAME_WITH_VECTOR = 0.7;
const VECTOR_WITH_NAME = 0.92;

export const duplicateEntry: LintRule = {
  id: 'duplicate-entry',
  severity: 'warning',
  fixable: 'content',
  docs: 'Two concept (or answer) entries about the same thing: their titles or aliases are the same name (case, punctuation and plurals aside), or the names are alike and the embeddings of title + summary are very close (embeddings alone are not enough). Heal merges them into one entry with the other names as aliases and points links at it (needs a model; a judging call checks the merge).',
  examples: {
    pass: {
      'wiki/concepts/Vector Database.md': exampleEntry({ title: 'Vector Database' }, '# Vector Database\n\nStores vectors.\n'),
      'wiki/concepts/Tokenizer.md': exampleEntry({ title: 'Tokenizer' }, '# Tokenizer\n\nSplits text.\n'),
    },
    fail: {
      'wiki/concepts/Vector Database.md': exampleEntry({ title: 'Vector Database' }, '# Vector Database\n\nStores vectors.\n'),
      'wiki/concepts/Vector databases.md': exampleEntry({ title: 'Vector databases' }, '# Vector databases\n\nDatabases of vectors.\n'),
    },
    expect: ['wiki/concepts/Vector databases.md:1:1'],
  },
  async check(input) {
    const candidates = input.entries.filter((e) => e.fm.kind === 'concept' || e.fm.kind === 'answer');
    const vectors = await entryVectors(input, candidates);
    const out: FindingDraft[] = [];
    for (let i = 0; i < candidates.length; i++) {
      for (let j = i + 1; j < candidates.length; j++) {
        const a = candidates[i]!;
        const b = candidates[j]!;
        if (a.fm.kind !== b.fm.kind) continue;
        const names = bestNameSimilarity(names_(a), names_(b));
        const va = vectors.get(a);
        const vb = vectors.get(b);
        const cos = va && vb ? cosine(va, vb) : 0;
        // Vectors alone are not enough: two concepts summarised by the same sentence look identical.
        const dup = names >= NAME_ALONE || (names >= NAME_WITH_VECTOR && cos >= VECTOR_WITH_NAME);
        if (!dup) continue;
        const [keep, other] = a.path <= b.path ? [a, b] : [b, a];
        out.push({
          file: wikiFile(other),
          place: { line: 1, column: 1 },
          reason: `Unexpected second entry about \`${other.fm.title}\` (same as ${wikiFile(keep)}: names ${names.toFixed(2)}${va && vb ? `, vectors ${cos.toFixed(2)}` : ''}), expected one entry with the other names as aliases`,
          note: 'merge them, or run `kb lint --heal` to propose a merge on a branch',
          data: { path: wikiFile(keep), other: wikiFile(other), nameSimilarity: names, vectorSimilarity: cos },
        });
      }
    }
    return out;
  },
};

function names_(e: LoadedEntry): string[] {
  return [String(e.fm.title ?? ''), ...(Array.isArray(e.fm.aliases) ? e.fm.aliases.map(String) : [])].filter(Boolean);
}

async function entryVectors(input: LintInput, entries: LoadedEntry[]): Promise<Map<LoadedEntry, Float32Array>> {
  const out = new Map<LoadedEntry, Float32Array>();
  if (!input.embedder || entries.length < 2) return out;
  const texts = entries.map((e) => `${e.fm.title}\n${names_(e).slice(1).join(', ')}\n${e.fm.summary ?? ''}`);
  const vecs = await input.embedder.embed(texts, input.signal);
  entries.forEach((e, i) => {
    const v = vecs[i];
    if (v) out.set(e, v);
  });
  return out;
}
