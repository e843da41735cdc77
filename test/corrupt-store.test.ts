import {
  closeSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { closeLexicons, lexiconFor, sharedLexiconPath } from '../src/text/lexicon.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.js';
import { claude } from './model-fixtures.js';
import { fixture, read, runKb, runKbIn } from './helpers.js';

const DOCS: Record<string, string> = {
  'raw/rag.md':
    '# Retrieval Basics\n\nRetrieval-Augmented Generation (RAG) answers questions from documents. A vector database stores embeddings for RAG. BM25 ranks passages.\n',
  'raw/vectors.md':
    '# Vector Stores\n\nA vector database indexes embeddings with HNSW. RAG systems query the vector database first. BM25 remains a strong baseline.\n',
  'raw/zh/检索.md':
    '# 检索增强生成笔记\n\n检索增强生成（RAG）先检索再生成。向量数据库（vector database）存储嵌入。检索增强生成依赖向量数据库和 BM25。\n',
};

type Damage = 'truncated' | 'garbled in the middle' | 'random bytes';

/** Damage a database file the ways a disk, a sync tool or a crash does. */
function damage(file: string, how: Damage): void {
  for (const ext of ['-wal', '-shm']) rmSync(file + ext, { force: true });
  const size = statSync(file).size;
  if (how === 'truncated') truncateSync(file, Math.floor(size / 2));
  else if (how === 'random bytes') {
    const b = Buffer.alloc(size);
    for (let i = 0; i < size; i++) b[i] = (Math.imul(i, 2654435761) >>> 24) & 255;
    writeFileSync(file, b);
  } else {
    const junk = Buffer.alloc(Math.floor(size / 3));
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919 + 13) % 256;
    const fd = openSync(file, 'r+');
    writeSync(fd, junk, 0, junk.length, Math.floor(size / 3));
    closeSync(fd);
  }
}

const asides = (dir: string, name: string) =>
  readdirSync(dir).filter((f) => f.startsWith(`${name}-corrupt-`) && !/-(wal|shm)$/.test(f));

let root: string;
let good: string;
beforeAll(async () => {
  root = fixture(DOCS);
  const r = await runKb(['compile'], { cwd: root });
  expect(r.code, r.stderr).toBe(0);
  good = join(root, '.good-store.db');
  // A clean copy to damage afresh for every case.
  const db = join(root, 'wiki', 'embeddings.db');
  copyFileSync(db, good);
  for (const ext of ['-wal', '-shm']) if (existsSync(db + ext)) copyFileSync(db + ext, good + ext);
});

function restore(): void {
  const db = join(root, 'wiki', 'embeddings.db');
  copyFileSync(good, db);
  for (const ext of ['-wal', '-shm']) {
    rmSync(db + ext, { force: true });
    if (existsSync(good + ext)) copyFileSync(good + ext, db + ext);
  }
  for (const f of asides(join(root, 'wiki'), 'embeddings.db')) rmSync(join(root, 'wiki', f));
}

const COMMANDS: [string, string[]][] = [
  ['compile', ['compile']],
  ['ask --offline', ['ask', '--offline', 'What is RAG?']],
  ['search', ['search', 'vector database']],
  ['status', ['status']],
  ['lint', ['lint']],
];
const DAMAGES: Damage[] = ['truncated', 'garbled in the middle', 'random bytes'];

describe('a damaged wiki/embeddings.db is set aside and rebuilt', () => {
  it.each(DAMAGES.flatMap((d) => COMMANDS.map(([name, args]) => [d, name, args] as const)))(
    '%s, then `kb %s` works and says so once',
    async (how, _name, args) => {
      restore();
      const db = join(root, 'wiki', 'embeddings.db');
      damage(db, how);
      const r = await runKbIn(args, { cwd: root });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/unexpected error/);
      const said = r.stderr.split('\n').filter((l) => l.includes('[store-corrupt]'));
      expect(said, r.stderr).toHaveLength(1);
      expect(said[0]).toMatch(
        /^wiki\/embeddings\.db: warning Unexpected damaged database \(.+\), expected a sound SQLite file — kb set it aside as wiki\/embeddings\.db-corrupt-\d{8}-\d{6} and started a new one/,
      );
      // Set aside, never deleted: the damaged bytes are still there, next to the new store.
      const [aside] = asides(join(root, 'wiki'), 'embeddings.db');
      expect(aside).toBeDefined();
      expect(statSync(join(root, 'wiki', aside!)).size).toBeGreaterThan(0);
      expect(existsSync(db)).toBe(true);
      // The next run finds a sound store and says nothing more.
      const again = await runKbIn(args, { cwd: root });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toContain('[store-corrupt]');
    },
  );

  it('after a rebuild, compile recompiles everything from raw/ and leaves an entry a person edited as it is', async () => {
    restore();
    const file = join(root, 'wiki', 'sources', 'Vector Stores.md');
    const edited = `${read(root, 'wiki/sources/Vector Stores.md').trimEnd()}\n\nMy own note: quokka indexes are hand-written.\n`;
    writeFileSync(file, edited);
    damage(join(root, 'wiki', 'embeddings.db'), 'random bytes');
    const r = await runKbIn(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('[store-corrupt]');
    expect(r.stdout).toMatch(/3 new, 0 updated/);
    expect(r.stdout).toMatch(/1 edited by you left alone/);
    expect(read(root, 'wiki/sources/Vector Stores.md')).toBe(edited);
    const search = await runKbIn(['search', 'HNSW'], { cwd: root });
    expect(search.stdout).toMatch(/Vector Stores/);
    const again = await runKbIn(['compile'], { cwd: root });
    expect(again.stdout).toMatch(/0 new, 0 updated, 3 unchanged/);
    writeFileSync(file, read(root, 'wiki/sources/Vector Stores.md'));
  });

  it('damage found only in use (a store too big for the check on open): the command is run again on a new store', async () => {
    // A store over the size checked page by page on open: wide vectors (sqlite-vec keeps room for
    // 1,024 of them per table, 8 KB each at 2,048 dimensions) make one of 16 MB from a few hundred
    // KB of text, where the default width needed megabytes of text compiled twice.
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const words =
      'retrieval vector database index query answer source search model text document ranking passage heading link graph cache token'.split(
        ' ',
      );
    let text = '# Big Notes\n\n';
    while (text.length < 200_000) {
      let p = '';
      for (let i = 0; i < 60; i++)
        p += `${words[Math.floor(rand() * words.length)]}${rand() < 0.1 ? '. ' : ' '}${rand() < 0.05 ? `w${Math.floor(rand() * 1e6)} ` : ''}`;
      text += `${p}\n\n`;
    }
    const big = fixture({
      ...DOCS,
      'raw/big.md': text,
      'kb.config.json': JSON.stringify({ embedding: { dims: 2048 } }),
    });
    expect((await runKbIn(['compile'], { cwd: big })).code).toBe(0);
    const db = join(big, 'wiki', 'embeddings.db');
    expect(statSync(db).size).toBeGreaterThan(8 * 1024 * 1024);
    damage(db, 'garbled in the middle');
    const r = await runKbIn(['search', 'vector database'], { cwd: big });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(r.stderr.split('\n').filter((l) => l.includes('[store-corrupt]'))).toHaveLength(1);
    expect(asides(join(big, 'wiki'), 'embeddings.db')).toHaveLength(1);
    const c = await runKbIn(['compile'], { cwd: big });
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toMatch(/4 new/);
    expect((await runKbIn(['search', 'HNSW'], { cwd: big })).stdout).toMatch(/Vector Stores/);
  });
});

describe('a damaged .kb/cache.db is set aside and started afresh', () => {
  let fake: FakeAnthropic;
  let env: Record<string, string>;
  /** A knowledge base compiled with the model once, copied for each damage. */
  let compiled: string;
  beforeAll(async () => {
    fake = await startFakeAnthropic(claude);
    env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url };
    compiled = fixture(DOCS);
    expect((await runKb(['compile'], { cwd: compiled, env })).code).toBe(0);
  });
  afterAll(async () => {
    await fake.close();
  });

  it.each(DAMAGES)('%s: `kb status` and a model compile work and say so', async (how) => {
    const kb = fixture({});
    cpSync(compiled, kb, { recursive: true });
    const cache = join(kb, '.kb', 'cache.db');
    expect(existsSync(cache)).toBe(true);
    damage(cache, how);
    const status = await runKb(['status'], { cwd: kb });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stderr.split('\n').filter((l) => l.includes('[cache-corrupt]'))).toHaveLength(1);
    expect(status.stderr).toMatch(
      /^\.kb\/cache\.db: warning Unexpected damaged database .+ set it aside as \.kb\/cache\.db-corrupt-\d{8}-\d{6}/m,
    );
    damage(cache, how);
    const r = await runKb(['compile', '--force'], { cwd: kb, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(r.stderr.split('\n').filter((l) => l.includes('[cache-corrupt]'))).toHaveLength(1);
    expect(asides(join(kb, '.kb'), 'cache.db')).toHaveLength(2);
  });
});

describe('a damaged .kb/lexicon.db (Chinese–English retrieval) is set aside and built again', () => {
  // Building a lexicon takes seconds: the damage found last (in use, past the check on open) only.
  it.each(['garbled in the middle'] as const)(
    '%s: `kb ask` in Chinese answers and says so once',
    async (how) => {
      const kb = fixture(DOCS);
      // The lexicon is built once per user, in the XDG cache folder: this test's own, holding a copy
      // of this user's (built here if missing), so that only the build after the damage is timed.
      const env = { XDG_CACHE_HOME: join(kb, 'xdg') };
      const shared = sharedLexiconPath(process.env);
      lexiconFor(join(kb, '.kb'));
      closeLexicons();
      mkdirSync(join(kb, 'xdg', 'kb'), { recursive: true });
      copyFileSync(shared, join(kb, 'xdg', 'kb', basename(shared)));
      expect((await runKbIn(['compile'], { cwd: kb, env })).code).toBe(0);
      const first = await runKbIn(['ask', '--offline', '--no-cache', '什么是向量数据库？'], { cwd: kb, env });
      expect(first.code, first.stderr).toBe(0);
      const dir = join(kb, 'xdg', 'kb');
      const name = readdirSync(dir).find((f) => /^lexicon-.*\.db$/.test(f))!;
      const lexicon = join(dir, name);
      expect(existsSync(lexicon)).toBe(true);
      damage(lexicon, how);
      const r = await runKb(['ask', '--offline', '--no-cache', '什么是向量数据库？'], { cwd: kb, env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/unexpected error/);
      expect(r.stderr.split('\n').filter((l) => l.includes('[lexicon-corrupt]'))).toHaveLength(1);
      expect(r.stdout).toBe(first.stdout);
      expect(asides(dir, name)).toHaveLength(1);
    },
    120_000,
  );

  it('a damaged .kb/cache.db does not stop `kb ask` (its answer cache lives there)', async () => {
    const kb = fixture(DOCS);
    expect((await runKbIn(['compile'], { cwd: kb })).code).toBe(0);
    expect((await runKbIn(['ask', '--offline', 'What is RAG?'], { cwd: kb })).code).toBe(0);
    damage(join(kb, '.kb', 'cache.db'), 'random bytes');
    const r = await runKbIn(['ask', '--offline', 'What is RAG?'], { cwd: kb });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.includes('[cache-corrupt]'))).toHaveLength(1);
  }, 120_000);
});
