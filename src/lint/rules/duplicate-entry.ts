import type { LoadedEntry } from '../../entry/wiki.js';
import { exampleEntry, linkGraph, wikiFile } from '../entry-info.js';
import { closePairs } from '../neighbours.js';
import { cosine, nameSimilarity, normalizeName } from '../similarity.js';
import type { FindingDraft, LintInput, LintRule } from '../types.js';

/** Names alike enough to be spellings of one (Tokeniser / Tokenizer), by trigram Dice; more evidence is needed. */
const ALIKE_NAMES = 0.6;
/** Summaries this close in embedding space, for names that are only alike (never for names alone). */
const ALIKE_SUMMARIES = 0.9;

export const duplicateEntry: LintRule = {
  id: 'duplicate-entry',
  severity: 'warning',
  fixable: 'content',
  docs: 'Two concept (or answer) entries about the same thing: the title of one is the title or an alias of the other (case, punctuation, spacing and plurals aside), or the names are alike (a spelling variant, or an abbreviation of the other) and the entries share a source and their summaries are very close in embedding space. A title that is another title plus words (`Red Hat Developer Hub Web`, `personal knowledge base`) names something narrower, not the same thing. The entry kept is the one with more sources, then more links to it, then more text, then the shorter title; heal merges the other into it with its names as aliases and points links at it (needs a model; a judging call checks the merge).',
  examples: {
    pass: {
      'wiki/concepts/Vector Database.md': exampleEntry(
        { title: 'Vector Database' },
        '# Vector Database\n\nStores vectors.\n',
      ),
      'wiki/concepts/Tokenizer.md': exampleEntry({ title: 'Tokenizer' }, '# Tokenizer\n\nSplits text.\n'),
      'wiki/concepts/Vector Database Index.md': exampleEntry(
        { title: 'Vector Database Index' },
        '# Vector Database Index\n\nFinds vectors fast.\n',
      ),
    },
    fail: {
      'wiki/concepts/Vector Database.md': exampleEntry(
        { title: 'Vector Database' },
        '# Vector Database\n\nStores vectors.\n',
      ),
      'wiki/concepts/Vector databases.md': exampleEntry(
        { title: 'Vector databases' },
        '# Vector databases\n\nDatabases of vectors.\n',
      ),
    },
    expect: ['wiki/concepts/Vector databases.md:1:1'],
  },
  async check(input) {
    const candidates = input.entries.filter((e) => e.fm.kind === 'concept' || e.fm.kind === 'answer');
    const vectors = await summaryVectors(input, candidates);
    const inbound = linkGraph(input).in;
    const out: FindingDraft[] = [];
    for (const [i, j] of candidatePairs(candidates, vectors)) {
      const a = candidates[i]!;
      const b = candidates[j]!;
      if (a.fm.kind !== b.fm.kind) continue;
      const va = vectors.get(a);
      const vb = vectors.get(b);
      const cos = va && vb ? cosine(va, vb) : 0;
      const why = duplicateEvidence(a, b, cos);
      if (!why) continue;
      const [keep, other] = survivor(a, b, (e) => inbound.get(e.fm.id)?.size ?? 0);
      out.push({
        file: wikiFile(other),
        place: { line: 1, column: 1 },
        reason: `Unexpected second entry about \`${other.fm.title}\` (same as ${wikiFile(keep)}: ${why}), expected one entry with the other names as aliases`,
        note: 'merge them, or run `kb lint --heal` to propose a merge on a branch',
        data: { path: wikiFile(keep), other: wikiFile(other), evidence: why, vectorSimilarity: cos },
      });
    }
    return out;
  },
};

/**
 * The pairs (i < j, in order) that can be duplicates: one's title is a name of the other (looked up
 * by name), or their summaries are close enough (nearest neighbours in the vector index); every
 * other pair fails duplicateEvidence whatever it holds.
 */
function candidatePairs(entries: LoadedEntry[], vectors: Map<LoadedEntry, Float32Array>): [number, number][] {
  const byName = new Map<string, number[]>();
  entries.forEach((e, i) => {
    for (const n of new Set([title(e), ...aliases(e)].map(compact)))
      if (n) (byName.get(n) ?? byName.set(n, []).get(n)!).push(i);
  });
  const pairs = new Set<string>(
    closePairs(
      entries.map((e) => vectors.get(e)),
      ALIKE_SUMMARIES,
    ).map(([i, j]) => `${i} ${j}`),
  );
  entries.forEach((e, i) => {
    for (const j of byName.get(compact(title(e))) ?? []) if (j !== i) pairs.add(i < j ? `${i} ${j}` : `${j} ${i}`);
  });
  return [...pairs].map((p) => p.split(' ').map(Number) as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

const title = (e: LoadedEntry) => String(e.fm.title ?? '');
const aliases = (e: LoadedEntry) => (Array.isArray(e.fm.aliases) ? e.fm.aliases.map(String).filter(Boolean) : []);
const compact = (n: string) => normalizeName(n).replace(/ /g, '');
const HAN = /\p{Script=Han}/u;

/** Why two entries are one, or undefined when they are not (shown in the finding). */
export function duplicateEvidence(a: LoadedEntry, b: LoadedEntry, summaryCosine: number): string | undefined {
  // The title of one is the title or an alias of the other.
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    const t = compact(title(x));
    const hit = [title(y), ...aliases(y)].find((n) => t && compact(n) === t);
    if (hit !== undefined)
      return hit === title(y) && title(x) !== title(y)
        ? `the same name as \`${title(x)}\` written differently`
        : `\`${title(x)}\` is its title or alias`;
  }
  if (narrower(title(a), title(b)) || narrower(title(b), title(a))) return undefined;
  // Python 2 and Python 3, GPT-4 and GPT-5: another number is another thing.
  if (numbers(title(a)) !== numbers(title(b))) return undefined;
  const related = relatedNames(a, b);
  if (!related) return undefined;
  const shared = (a.fm.source_ref ?? []).filter((r) => (b.fm.source_ref ?? []).includes(r));
  if (!shared.length || summaryCosine < ALIKE_SUMMARIES) return undefined;
  return `${related}, a shared source ${shared[0]}, summaries ${summaryCosine.toFixed(2)} alike`;
}

const numbers = (n: string) => (n.normalize('NFKC').match(/\d+/g) ?? []).join(' ');

/** Is `b` `a` plus words (`Red Hat Developer Hub Web`), or in Chinese `a` inside a longer name (个人知识库)? */
function narrower(a: string, b: string): boolean {
  const x = normalizeName(a);
  const y = normalizeName(b);
  if (!x || !y || compact(a) === compact(b)) return false;
  const wx = x.split(' ');
  const wy = new Set(y.split(' '));
  if (wy.size > new Set(wx).size && wx.every((w) => wy.has(w))) return true;
  return HAN.test(x) && compact(b).includes(compact(a));
}

/** Names that may be one thing: a spelling variant, an abbreviation made of the other's initials, or a shared alias. */
function relatedNames(a: LoadedEntry, b: LoadedEntry): string | undefined {
  const ta = title(a);
  const tb = title(b);
  if (nameSimilarity(ta, tb) >= ALIKE_NAMES) return `names alike (\`${ta}\`, \`${tb}\`)`;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    const abbr = [title(x), ...aliases(x)].find((n) => isInitialsOf(n, title(y)));
    if (abbr) return `\`${abbr}\` abbreviates \`${title(y)}\``;
  }
  const common = aliases(a).find((n) => aliases(b).some((m) => compact(m) === compact(n)));
  if (common) return `a shared alias \`${common}\``;
  return undefined;
}

function isInitialsOf(short: string, long: string): boolean {
  const s = compact(short);
  const words = normalizeName(long).split(' ').filter(Boolean);
  if (words.length < 2 || s.length !== words.length || !/^[a-z0-9]+$/.test(s)) return false;
  return words.map((w) => w[0]).join('') === s;
}

/**
 * Which entry stays: more sources, then more entries linking to it, then clearly more text (by
 * powers of two), then the shorter, more general title; the path decides a tie, so it is stable.
 */
export function survivor(
  a: LoadedEntry,
  b: LoadedEntry,
  linksTo: (e: LoadedEntry) => number,
): [LoadedEntry, LoadedEntry] {
  const score = (e: LoadedEntry) => [
    (e.fm.source_ref ?? []).length,
    linksTo(e),
    Math.floor(Math.log2(e.body.length + 1)),
    -Array.from(title(e)).length,
  ];
  const sa = score(a);
  const sb = score(b);
  for (let k = 0; k < sa.length; k++) if (sa[k] !== sb[k]) return sa[k]! > sb[k]! ? [a, b] : [b, a];
  return a.path <= b.path ? [a, b] : [b, a];
}

async function summaryVectors(input: LintInput, entries: LoadedEntry[]): Promise<Map<LoadedEntry, Float32Array>> {
  const out = new Map<LoadedEntry, Float32Array>();
  const withSummary = entries.filter((e) => typeof e.fm.summary === 'string' && e.fm.summary.trim());
  if (!input.embedder || withSummary.length < 2) return out;
  const vecs = await input.embedder.embed(
    withSummary.map((e) => String(e.fm.summary)),
    input.signal,
  );
  withSummary.forEach((e, i) => {
    const v = vecs[i];
    if (v) out.set(e, v);
  });
  return out;
}
