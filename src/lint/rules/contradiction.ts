import { type LoadedEntry, sourceRefs } from '../../entry/wiki.js';
import { exampleEntry, filePoint, resolver, wikiFile } from '../entry-info.js';
import { extractFacts, SubjectNames, type Fact } from '../facts.js';
import type { FindingDraft, LintInput, LintRule } from '../types.js';
import { withoutBacklinks } from '../../entry/backlinks.js';
import { loadTemplate, renderTemplate, splitTemplate } from '../../model/templates.js';
import { closePairs } from '../neighbours.js';
import { cosine } from '../similarity.js';

/** With a model: how many entry pairs it is asked about per run (answers are cached). */
const MODEL_PAIRS = 8;
const MODEL_MIN_SIMILARITY = 0.5;
const ENTRY_CHARS = 6000;

export const contradiction: LintRule = {
  id: 'contradiction',
  severity: 'warning',
  fixable: 'content',
  docs: 'Two entries that state different numbers or dates about the same subject ("founded in 1998" / "founded in 2001"), found by comparing the numbers each sentence states about a named subject. With a model (not `--offline`), pairs of entries are also judged by the model (template `lint-contradiction`; answers are cached): first two sources that feed one concept (in any language), then a concept and each source it cites, then the most similar pairs. Heal asks the model to rewrite both so they agree with their sources and cite them; a separate judging call checks the rewrite against the sources.',
  examples: {
    pass: {
      'wiki/concepts/Eiffel Tower.md': exampleEntry(
        { title: 'Eiffel Tower' },
        '# Eiffel Tower\n\nThe Eiffel Tower is 330 metres tall.\n',
      ),
      'wiki/sources/Paris Trip.md': exampleEntry(
        { title: 'Paris Trip', kind: 'source', source_ref: ['raw/paris.md'] },
        '# Paris Trip\n\nWe saw the [[Eiffel Tower]]; it is 330 metres tall.\n',
      ),
    },
    fail: {
      'wiki/concepts/Eiffel Tower.md': exampleEntry(
        { title: 'Eiffel Tower' },
        '# Eiffel Tower\n\nThe Eiffel Tower is 330 metres tall.\n',
      ),
      'wiki/sources/Paris Trip.md': exampleEntry(
        { title: 'Paris Trip', kind: 'source', source_ref: ['raw/paris.md'] },
        '# Paris Trip\n\nWe saw the [[Eiffel Tower]]. The Eiffel Tower is 300 metres tall.\n',
      ),
    },
    expect: ['wiki/sources/Paris Trip.md:18:1'],
  },
  async check(input) {
    const r = resolver(input);
    const names = new SubjectNames(
      input.entries
        .filter((e) => e.fm.kind === 'concept')
        .flatMap((e) =>
          [String(e.fm.title), ...(Array.isArray(e.fm.aliases) ? e.fm.aliases.map(String) : [])].map((name) => ({
            name,
            title: String(e.fm.title),
          })),
        ),
    );
    const byKey = new Map<string, Fact[]>();
    for (const e of input.entries)
      for (const f of extractFacts(e, names, r)) (byKey.get(f.key) ?? byKey.set(f.key, []).get(f.key)!).push(f);
    const out: FindingDraft[] = [];
    const seen = new Set<string>();
    const pairs = new Map<LoadedEntry, Set<LoadedEntry>>();
    const ranks = new Map<LoadedEntry, string>();
    const rankOf = (e: LoadedEntry) => ranks.get(e) ?? ranks.set(e, rank(e)).get(e)!;
    for (const facts of byKey.values()) {
      // Many different figures for one subject, cue and unit are not one fact told two ways (versions,
      // several events, a phrase that names no single thing): nothing to compare.
      if (new Set(facts.map((f) => f.value)).size > MAX_VALUES) continue;
      // The values each entry states under this key: an entry that also states the other's value agrees.
      const said = new Map<LoadedEntry, Set<string>>();
      for (const f of facts) (said.get(f.entry) ?? said.set(f.entry, new Set()).get(f.entry)!).add(f.value);
      for (let i = 0; i < facts.length; i++) {
        for (let j = i + 1; j < facts.length; j++) {
          const a = facts[i]!;
          const b = facts[j]!;
          if (a.entry === b.entry || a.value === b.value) continue;
          // Both entries must not also agree on the other's value (a list of several figures).
          if (said.get(a.entry)!.has(b.value) || said.get(b.entry)!.has(a.value)) continue;
          const [first, second] = rankOf(a.entry) <= rankOf(b.entry) ? [a, b] : [b, a];
          // A pair of entries is reported once (looked up by the entries: no string made per pair of facts).
          const flagged = pairs.get(first.entry) ?? pairs.set(first.entry, new Set()).get(first.entry)!;
          if (flagged.has(second.entry)) continue;
          flagged.add(second.entry);
          seen.add(`${first.entry.path}\u0000${second.entry.path}`);
          out.push({
            file: wikiFile(second.entry),
            place: filePoint(second.entry, second.line, 1),
            reason: `Unexpected ${second.value} for ${second.subject} (“${clip(second.sentence)}”), expected ${first.value} as ${wikiFile(first.entry)} says (“${clip(first.sentence)}”)`,
            note: 'check the sources and correct one of them, or run `kb lint --heal` to have both rewritten from their sources on a branch',
            data: {
              path: wikiFile(first.entry),
              other: wikiFile(second.entry),
              subject: first.subject,
              values: [first.value, second.value],
            },
          });
        }
      }
    }
    if (input.model) out.push(...(await askModel(input, seen)));
    return out;
  },
};

/** Claude judges the most similar pairs the number check did not already flag. */
async function askModel(input: LintInput, seen: Set<string>): Promise<FindingDraft[]> {
  const model = input.model;
  if (!model || !input.embedder || input.entries.length < 2) return [];
  const entries = input.entries;
  const vecs = await input.embedder.embed(
    entries.map((e) => `${e.fm.title}\n${e.fm.summary ?? ''}`),
    input.signal,
  );
  const pairs: { a: LoadedEntry; b: LoadedEntry; sim: number; shared: number; sources: boolean }[] = [];
  const index = new Map(entries.map((e, i) => [e, i]));
  const simOf = (a: LoadedEntry, b: LoadedEntry) => {
    const [va, vb] = [vecs[index.get(a)!], vecs[index.get(b)!]];
    return va && vb ? cosine(va, vb) : 0;
  };
  const add = (a: LoadedEntry, b: LoadedEntry, shared: number, sim: number) => {
    const [x, y] = rank(a) <= rank(b) ? [a, b] : [b, a];
    if (!seen.has(`${x.path}\u0000${y.path}`))
      pairs.push({ a: x, b: y, sim, shared, sources: x.fm.kind === 'source' && y.fm.kind === 'source' });
  };
  // Entries about the same thing first, in any language: two sources that feed one concept, a
  // concept and each source it cites. Then pairs near in the vector index.
  const related = relatedPairs(entries);
  for (const [a, b, shared] of related) add(a, b, shared, simOf(a, b));
  const taken = new Set(related.map(([a, b]) => pairKey(a, b)));
  for (const [i, j] of closePairs(vecs, MODEL_MIN_SIMILARITY)) {
    const a = entries[i]!;
    const b = entries[j]!;
    if (taken.has(pairKey(a, b))) continue;
    const sim = simOf(a, b);
    if (sim >= MODEL_MIN_SIMILARITY) add(a, b, 0, sim);
  }
  pairs.sort(
    (p, q) =>
      Number(q.shared > 0) - Number(p.shared > 0) ||
      Number(q.sources) - Number(p.sources) ||
      q.shared - p.shared ||
      q.sim - p.sim,
  );
  const tpl = loadTemplate(input.paths.root, 'lint-contradiction');
  const { system, input: inputPart } = splitTemplate(tpl.text);
  const text = (e: LoadedEntry) => {
    const t = `title: ${e.fm.title}\n\n${withoutBacklinks(e.body)}`.replace(/<(\/?)(entry)\b/gi, '&lt;$1$2');
    return t.length > ENTRY_CHARS ? `${t.slice(0, ENTRY_CHARS)}\n[…cut]` : t;
  };
  const out: FindingDraft[] = [];
  for (const { a, b } of pairs.slice(0, MODEL_PAIRS)) {
    if (input.signal?.aborted) break;
    let reply: string;
    try {
      const prompt = renderTemplate(inputPart, {
        first_path: wikiFile(a),
        first: text(a),
        second_path: wikiFile(b),
        second: text(b),
      });
      reply = (
        await model.complete(
          { task: 'lint-contradiction', templateHash: tpl.hash, system, prompt, maxTokens: 400 },
          input.signal,
        )
      ).text;
    } catch {
      continue;
    }
    if (!/<verdict>\s*contradiction\s*<\/verdict>/i.test(reply)) continue;
    const subject =
      (/<subject>([\s\S]*?)<\/subject>/i.exec(reply)?.[1] ?? '').replace(/\s+/g, ' ').trim() || String(a.fm.title);
    const why = (/<reason>([\s\S]*?)<\/reason>/i.exec(reply)?.[1] ?? '').replace(/\s+/g, ' ').trim();
    out.push({
      file: wikiFile(b),
      place: { line: 1, column: 1 },
      reason: `Unexpected disagreement with ${wikiFile(a)} about ${subject}${why ? ` (${clip(why)})` : ''}, expected entries that agree`,
      note: 'check the sources and correct one of them, or run `kb lint --heal` to have both rewritten from their sources on a branch',
      data: { path: wikiFile(a), other: wikiFile(b), subject, byModel: true },
    });
  }
  return out;
}

const pairKey = (a: LoadedEntry, b: LoadedEntry) =>
  a.path < b.path ? `${a.path}\u0000${b.path}` : `${b.path}\u0000${a.path}`;

/**
 * Pairs of entries that say things about the same subject, with how many concepts they share: the
 * sources each concept cites (by raw path, so a source and its translation pair as well) with one
 * another, and the concept with each of them.
 */
function relatedPairs(entries: readonly LoadedEntry[]): [LoadedEntry, LoadedEntry, number][] {
  const sourceOf = new Map<string, LoadedEntry>();
  for (const e of entries) if (e.fm.kind === 'source') for (const r of sourceRefs(e)) sourceOf.set(r, e);
  const shared = new Map<string, [LoadedEntry, LoadedEntry, number]>();
  const bump = (a: LoadedEntry, b: LoadedEntry) => {
    if (a === b) return;
    const k = pairKey(a, b);
    const had = shared.get(k);
    if (had) had[2]++;
    else shared.set(k, [a, b, 1]);
  };
  for (const c of entries) {
    if (c.fm.kind !== 'concept') continue;
    const cited = [
      ...new Set(
        sourceRefs(c)
          .map((r) => sourceOf.get(r))
          .filter((x): x is LoadedEntry => Boolean(x)),
      ),
    ];
    for (const s of cited) bump(c, s);
    for (let i = 0; i < cited.length; i++) for (let j = i + 1; j < cited.length; j++) bump(cited[i]!, cited[j]!);
  }
  return [...shared.values()];
}

/** The most different values a fact may be given and still be compared. */
const MAX_VALUES = 3;

function rank(e: LoadedEntry): string {
  return `${e.fm.kind === 'concept' ? 0 : e.fm.kind === 'source' ? 1 : 2}${e.path}`;
}

function clip(s: string): string {
  return Array.from(s).length > 90 ? `${Array.from(s).slice(0, 89).join('')}…` : s;
}
