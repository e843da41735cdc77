import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/defaults.js';
import { createEmbedder } from '../embed/index.js';
import { kbPaths } from '../kb/paths.js';
import { exampleEntry } from './entry-info.js';
import { loadLintInput } from './input.js';
import { lint } from './lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

interface E {
  title: string;
  aliases?: string[];
  /** How many sources (raw/s1.md…), or which. */
  sources?: number | string[];
  summary?: string;
  /** Titles of entries it links to. */
  links?: string[];
}

function concept(e: E): [string, string] {
  const refs =
    typeof e.sources === 'number' ? Array.from({ length: e.sources }, (_, i) => `raw/s${i + 1}.md`) : (e.sources ?? []);
  const body = `# ${e.title}\n\n${e.summary ?? `${e.title} in one paragraph.`}\n${(e.links ?? []).map((l) => `\nSee [[${l}]].\n`).join('')}`;
  return [
    `wiki/concepts/${e.title}.md`,
    exampleEntry(
      { title: e.title, aliases: e.aliases ?? [], source_ref: refs, ...(e.summary ? { summary: e.summary } : {}) },
      body,
    ),
  ];
}

async function duplicates(entries: E[]): Promise<{ keep: string; other: string }[]> {
  const root = mkdtempSync(join(tmpdir(), 'kb-dup-'));
  roots.push(root);
  mkdirSync(join(root, 'raw'), { recursive: true });
  for (const [p, text] of entries.map(concept)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  const input = await loadLintInput(kbPaths(root), DEFAULT_CONFIG, {
    embedder: createEmbedder(DEFAULT_CONFIG.embedding),
  });
  const report = await lint(input, { rules: ['duplicate-entry'] });
  const title = (p: unknown) =>
    String(p)
      .replace(/^wiki\/concepts\//, '')
      .replace(/\.md$/, '');
  return report.findings.map((f) => ({ keep: title(f.data?.path), other: title(f.data?.other) }));
}

const SAME = 'A portal for developers to find services, documentation and templates of the platform.';

describe('duplicate-entry', () => {
  // [what, entries, the pair found ([] when none): kept first]
  const table: [string, E[], string[]][] = [
    // Not duplicates: a title that is another's title plus words names something narrower.
    [
      'Red Hat Developer Hub vs Red Hat Developer Hub Web (same summary, a shared source)',
      [
        { title: 'Red Hat Developer Hub', sources: 27, summary: SAME },
        { title: 'Red Hat Developer Hub Web', sources: ['raw/s1.md'], summary: SAME },
      ],
      [],
    ],
    [
      'personal knowledge base vs knowledge base',
      [
        { title: 'personal knowledge base', sources: 2 },
        { title: 'knowledge base', sources: 2 },
      ],
      [],
    ],
    [
      '个人知识库 vs 知识库',
      [
        { title: '个人知识库', sources: 1 },
        { title: '知识库', sources: 1 },
      ],
      [],
    ],
    [
      'two concepts summarised by the same sentence of one source (Matcha, Green Tea)',
      [
        { title: 'Matcha', sources: ['raw/tea.md'], summary: 'Matcha is a powdered green tea.' },
        { title: 'Green Tea', sources: ['raw/tea.md'], summary: 'Matcha is a powdered green tea.' },
      ],
      [],
    ],
    [
      'a shared abbreviation alone (ML: Machine Learning, Markup Language)',
      [
        {
          title: 'Machine Learning',
          aliases: ['ML'],
          sources: ['raw/a.md'],
          summary: 'Programs that learn from data.',
        },
        {
          title: 'Markup Language',
          aliases: ['ML'],
          sources: ['raw/b.md'],
          summary: 'Tags that describe the structure of a document.',
        },
      ],
      [],
    ],
    [
      'Python 2 vs Python 3 (a shared source, close summaries)',
      [
        { title: 'Python 2', sources: ['raw/py.md'], summary: 'A version of the Python programming language.' },
        { title: 'Python 3', sources: ['raw/py.md'], summary: 'A version of the Python programming language.' },
      ],
      [],
    ],
    [
      'Tokenizer vs Tokenizer Library',
      [
        { title: 'Tokenizer', sources: 1 },
        { title: 'Tokenizer Library', sources: 1 },
      ],
      [],
    ],

    // Duplicates.
    [
      'RAG, an alias of Retrieval-Augmented Generation, vs an entry titled RAG',
      [
        { title: 'Retrieval-Augmented Generation', aliases: ['RAG', '检索增强生成'], sources: 3 },
        { title: 'RAG', sources: 1 },
      ],
      ['Retrieval-Augmented Generation', 'RAG'],
    ],
    [
      'Vector Database vs vector databases (kept: more sources)',
      [
        { title: 'Vector Database', sources: 1 },
        { title: 'vector databases', sources: 2 },
      ],
      ['vector databases', 'Vector Database'],
    ],
    [
      'Knowledge Graph vs Knowledge-Graphs, tied: the shorter title stays',
      [
        { title: 'Knowledge-Graphs', sources: 1 },
        { title: 'Knowledge Graph', sources: 1 },
      ],
      ['Knowledge Graph', 'Knowledge-Graphs'],
    ],
    [
      '检索增强生成 vs an entry with it as an alias',
      [
        { title: '检索增强生成', sources: 1 },
        { title: 'Retrieval-Augmented Generation', aliases: ['检索增强生成'], sources: 2 },
      ],
      ['Retrieval-Augmented Generation', '检索增强生成'],
    ],
    [
      'the 27-source Red Hat Developer Hub is never merged into a shorter alias-named fragment',
      [
        { title: 'Red Hat Developer Hub', aliases: ['RHDH'], sources: 27 },
        { title: 'RHDH', sources: ['raw/s1.md'] },
      ],
      ['Red Hat Developer Hub', 'RHDH'],
    ],
    [
      'LLM vs Large Language Model: initials, a shared source and the same summary',
      [
        {
          title: 'LLM',
          sources: ['raw/ai.md'],
          summary: 'A neural network trained on large amounts of text to predict the next token.',
        },
        {
          title: 'Large Language Model',
          sources: ['raw/ai.md', 'raw/b.md'],
          summary: 'A neural network trained on large amounts of text to predict the next token.',
        },
      ],
      ['Large Language Model', 'LLM'],
    ],
    [
      'Tokeniser vs Tokenizer: spellings, a shared source, close summaries; kept: more links to it',
      [
        { title: 'Tokeniser', sources: ['raw/nlp.md'], summary: 'Splits text into tokens for a language model.' },
        { title: 'Tokenizer', sources: ['raw/nlp.md'], summary: 'Splits text into tokens for a language model.' },
        { title: 'Language Model', sources: ['raw/other.md'], summary: 'Predicts text.', links: ['Tokeniser'] },
      ],
      ['Tokeniser', 'Tokenizer'],
    ],
    [
      'Tokeniser vs Tokenizer with nothing else in common',
      [
        { title: 'Tokeniser', sources: ['raw/a.md'], summary: 'Splits text into tokens.' },
        { title: 'Tokenizer', sources: ['raw/b.md'], summary: 'A company that sells tokens for arcade machines.' },
      ],
      [],
    ],
  ];

  it.each(table)('%s', async (_what, entries, pair) => {
    const found = await duplicates(entries);
    expect(found).toEqual(pair.length ? [{ keep: pair[0], other: pair[1] }] : []);
  });
});
