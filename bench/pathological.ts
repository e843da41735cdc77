// npx tsx bench/pathological.ts [-- --sizes 5000,10000,20000 --only name]
// CPU time of each text pass of the offline compile on pathological one-line inputs at growing
// sizes: a pass whose time grows faster than its input (ratio ≫ 2 when the size doubles) is quadratic.
import { ingestFile } from '../src/ingest/index.js';
import { offlineSource } from '../src/compile/offline/writer.js';
import { extractEntities } from '../src/compile/offline/entities.js';
import { extractSummary } from '../src/compile/offline/summary.js';
import { chunkMarkdown } from '../src/chunk/index.js';
import { chunkSearchText } from '../src/text/search.js';
import { LocalEmbedder } from '../src/embed/index.js';
import { autolink, buildNameTable, resolveLinks } from '../src/emit/linker.js';
import type { ContentHash, RawPath } from '../src/types.js';

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : def;
}
const sizes = arg('sizes', '5000,10000,20000').split(',').map(Number);
const only = arg('only', '');
const limitMs = Number(arg('limit', '20000'));

export const INPUTS: Record<string, (n: number) => string> = {
  letters: (n) => 'x'.repeat(n),
  capitals: (n) => 'X'.repeat(n),
  capWords: (n) => 'Ab '.repeat(n / 3),
  words: (n) => 'word '.repeat(n / 5),
  hyphens: (n) => 'a-'.repeat(n / 2),
  han: (n) => '检索增强生成向量数据库'.repeat(n / 10),
  hanOne: (n) => '中'.repeat(n),
  stars: (n) => '*'.repeat(n),
  brackets: (n) => '['.repeat(n),
  closeBrackets: (n) => ']'.repeat(n),
  wikiOpen: (n) => '[['.repeat(n / 2),
  parens: (n) => '('.repeat(n),
  backticks: (n) => '`'.repeat(n),
  lt: (n) => '<'.repeat(n),
  bang: (n) => '!['.repeat(n / 2),
  pipes: (n) => '|'.repeat(n),
  underscores: (n) => '_'.repeat(n),
  dots: (n) => '.'.repeat(n),
  hashes: (n) => '#'.repeat(n),
  spaces: (n) => `a${' '.repeat(n)}b`,
  tabs: (n) => `a${'\t'.repeat(n)}b`,
  punctMix: (n) => '*[(`<_'.repeat(n / 6),
  enParen: (n) => 'Ab ('.repeat(n / 4),
  zhParen: (n) => '检索（'.repeat(n / 3),
  zhParenA: (n) => `检索（${'a'.repeat(n)}`,
  boldOpen: (n) => '**a'.repeat(n / 3),
  linkish: (n) => '[a]('.repeat(n / 4),
  urlish: (n) => 'http://'.repeat(n / 7),
  emphasisMix: (n) => '_a*'.repeat(n / 3),
  lines: (n) => 'x\n'.repeat(n / 2),
  blankLines: (n) => '\n'.repeat(n),
  listItems: (n) => '- '.repeat(n / 2),
  quotes: (n) => '> '.repeat(n / 2),
  fences: (n) => '```\n'.repeat(n / 4),
  htmlComment: (n) => '<!--'.repeat(n / 4),
  digits: (n) => '1'.repeat(n),
  dashes: (n) => '-'.repeat(n),
  camel: (n) => 'aB'.repeat(n / 2),
  sentences: (n) => 'Ab. '.repeat(n / 4),
  zhSentences: (n) => '检索。'.repeat(n / 3),
  latinMix: (n) => 'éA'.repeat(n / 2),
  hanCap: (n) => '中A'.repeat(n / 2),
  alnum: (n) => 'a1'.repeat(n / 2),
  headBrackets: (n) => `# ${'[['.repeat(n / 2)}`,
  headSpaces: (n) => `# a${' '.repeat(n)}b`,
  h2Spaces: (n) => `# T\n\n## a${' '.repeat(n)}b\n\nText here.`,
  headUnderscores: (n) => `# ${'_'.repeat(n)}x`,
  namedTags: (n) => 'a <x>'.repeat(n / 5),
  closedTags: (n) => `${'a <x>'.repeat(n / 10)}${'</x>'.repeat(n / 8)}`,
  uiBold: (n) => 'click **a b** '.repeat(n / 14),
  uiBoldLater: (n) => `${'**a b** '.repeat(n / 16)}click **a b**`,
  nestedFences: (n) => '````md\n```x\nAb\n```\n````\n'.repeat(n / 24),
  capLines: (n) => 'ab\nCd '.repeat(n / 6),
  spacesBeforeBreak: (n) => `a${' '.repeat(n)}b`,
  instructionHeads: (n) => '## Add cards\n\nShow backlinks here.\n'.repeat(n / 36),
  linksLine: (n) => '[a](b) ∙ '.repeat(n / 9),
  coverbs: (n) => '发送给'.repeat(n / 3),
  htmlAttrs: (n) => `<a${' a'.repeat(n / 2)}`,
  htmlValues: (n) => `<div${' a=b'.repeat(n / 4)}`,
  linkParens: (n) => `[a](${'x('.repeat(n / 2)}`,
  images: (n) => '![a](b.png "'.repeat(n / 12),
  wikiPipe: (n) => '[[ab|'.repeat(n / 5),
  spacesHash: (n) => `a${' '.repeat(n)}#b`,
  base64: (n) => Buffer.from(Array.from({ length: (n * 3) / 4 }, (_, i) => (i * 7919) % 256)).toString('base64'),
  punct3: (n) => '*[('.repeat(n / 3),
  hanLong: (n) => '检索增强生成向量数据库中文分词知识库'.repeat(n / 18),
  realistic: (n) =>
    'The Quick Brown fox (QBF) jumps 检索增强生成（RAG）over **bold** [[link]] and [a](http://x.org/a_(b)) `code` <b>tag</b> '.repeat(
      n / 100,
    ),
};

const hash = 'h' as ContentHash;
const embedder = new LocalEmbedder(384);
const table = buildNameTable([
  { name: 'Vector Database', file: 'Vector Database', id: 'concept/vector-database' },
  { name: 'xx', file: 'XX', id: 'concept/xx' },
  { name: '检索增强', file: '检索增强', id: 'concept/zh' },
]);

const PASSES: Record<string, (s: string) => Promise<unknown> | unknown> = {
  ingestMd: (s) =>
    ingestFile({ path: 'a.md' as RawPath, absPath: '/a.md', size: s.length, mtimeMs: 0 }, Buffer.from(s), hash, {
      maxFileBytes: 1e9,
    }),
  ingestHtml: (s) =>
    ingestFile(
      { path: 'a.html' as RawPath, absPath: '/a.html', size: s.length, mtimeMs: 0 },
      Buffer.from(`<html><body><p>${s}</p></body></html>`),
      hash,
      { maxFileBytes: 1e9 },
    ),
  ingestCode: (s) =>
    ingestFile({ path: 'a.py' as RawPath, absPath: '/a.py', size: s.length, mtimeMs: 0 }, Buffer.from(s), hash, {
      maxFileBytes: 1e9,
    }),
  ingestTxt: (s) =>
    ingestFile({ path: 'a.txt' as RawPath, absPath: '/a.txt', size: s.length, mtimeMs: 0 }, Buffer.from(s), hash, {
      maxFileBytes: 1e9,
    }),
  summary: (s) => extractSummary(s),
  entities: (s) => extractEntities(s, 'T'),
  chunk: (s) => chunkMarkdown(s, { maxTokens: 400, overlapTokens: 50 }),
  searchText: (s) => chunkMarkdown(s, { maxTokens: 400, overlapTokens: 50 }).map((c) => chunkSearchText(c)),
  embed: (s) => embedder.embed(chunkMarkdown(s, { maxTokens: 400, overlapTokens: 50 }).map((c) => c.text)),
  autolink: (s) => autolink(s, table, 'self'),
  resolveLinks: (s) => resolveLinks(s, () => undefined),
  codeSource: async (s) => {
    const r = (await PASSES['ingestCode']!(s)) as Awaited<ReturnType<typeof ingestFile>>;
    return r.doc ? offlineSource(r.doc) : undefined;
  },
  offlineSource: async (s) => {
    const r = (await PASSES['ingestMd']!(s)) as Awaited<ReturnType<typeof ingestFile>>;
    return r.doc ? offlineSource(r.doc) : undefined;
  },
};

const passOnly = arg('pass', '');
for (const [name, make] of Object.entries(INPUTS)) {
  if (only && !only.split(',').includes(name)) continue;
  for (const [pass, run] of Object.entries(PASSES)) {
    if (passOnly && !passOnly.split(',').includes(pass)) continue;
    const times: number[] = [];
    for (const n of sizes) {
      const s = make(n);
      const before = process.cpuUsage();
      await run(s);
      const cpu = process.cpuUsage(before);
      const ms = (cpu.user + cpu.system) / 1000;
      times.push(ms);
      if (ms > limitMs) break;
    }
    const ratio = times.length > 1 ? times[times.length - 1]! / Math.max(1, times[times.length - 2]!) : 0;
    const flag = ratio > 3 && times[times.length - 1]! > 50 ? '  <-- superlinear' : '';
    console.log(
      `${name.padEnd(14)} ${pass.padEnd(14)} ${times.map((t) => t.toFixed(0).padStart(7)).join(' ')} ms${flag}`,
    );
  }
}
