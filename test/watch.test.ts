import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, holdLock, KB_BIN, listTree, runKb, writeFile } from './helpers.js';

interface Event {
  type: string;
  [k: string]: unknown;
}

/** `kb watch --json` as a child process: its events as they come, and a clean stop. */
class Watcher {
  readonly events: Event[] = [];
  stderr = '';
  private readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  private waiters: (() => void)[] = [];

  constructor(root: string, extra: string[] = []) {
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: undefined };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
    this.child = spawn(process.execPath, [KB_BIN, 'watch', '--json', '--debounce', '200', ...extra], {
      cwd: root,
      env: env as NodeJS.ProcessEnv,
    });
    let buf = '';
    this.child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.trim()) this.events.push(JSON.parse(line) as Event);
      }
      for (const w of this.waiters.splice(0)) w();
    });
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((res) => this.child.on('close', (code) => res(code)));
    running.push(this);
  }

  /** The first event from `from` on that matches, waiting for it. */
  async next(pred: (e: Event) => boolean, from = 0, timeoutMs = 20_000): Promise<{ event: Event; index: number }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.events.findIndex((e, i) => i >= from && pred(e));
      if (index >= 0) return { event: this.events[index]!, index };
      if (Date.now() > deadline)
        throw new Error(`timed out; events: ${JSON.stringify(this.events.map((e) => e.type))}; stderr: ${this.stderr}`);
      await new Promise<void>((res) => {
        this.waiters.push(res);
        setTimeout(res, 200);
      });
    }
  }

  async compiled(from: number) {
    return this.next((e) => e.type === 'compiled' || e.type === 'compile-failed', from);
  }

  async stop(): Promise<number | null> {
    this.child.kill('SIGINT');
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

const running: Watcher[] = [];
afterEach(() => {
  for (const w of running.splice(0)) w.kill();
});

type Report = { new: number; updated: number; deleted: number; renamed: number; messages: { ruleId: string }[] };
const report = (e: Event) => e['report'] as Report;

describe('kb watch', () => {
  it('compiles on add, change, rename and delete under raw/, then stops cleanly on Ctrl-C', async () => {
    const root = fixture({ 'raw/old.md': '# Old Note\n\nSomething compiled before watch started.\n' });
    const w = new Watcher(root);
    const ready = await w.next((e) => e.type === 'ready');
    // The initial catch-up compile ran before ready.
    expect(w.events.some((e) => e.type === 'compiled' && report(e).new === 1)).toBe(true);

    writeFile(
      root,
      'raw/vector.md',
      '# Vector Databases\n\nA vector database stores embeddings for similarity search.\n',
    );
    let c = await w.compiled(ready.index);
    expect(c.event.type).toBe('compiled');
    expect(report(c.event).new).toBe(1);
    expect(listTree(join(root, 'wiki'))).toContain('sources/Vector Databases.md');

    // Each step waits for the compile that shows it (a slow machine may split a step in two).
    const until = (pred: (r: Report) => boolean) =>
      w.next((e) => e.type === 'compiled' && pred(report(e)), c.index + 1);
    writeFile(
      root,
      'raw/vector.md',
      '# Vector Databases\n\nA vector database stores embeddings. HNSW is a common index.\n',
    );
    c = await until((r) => r.updated === 1);
    expect(readFileSync(join(root, 'wiki/sources/Vector Databases.md'), 'utf8')).toContain('HNSW');

    renameSync(join(root, 'raw/vector.md'), join(root, 'raw/vectors.md'));
    c = await until((r) => r.renamed === 1);
    expect(readFileSync(join(root, 'wiki/sources/Vector Databases.md'), 'utf8')).toContain('raw/vectors.md');

    rmSync(join(root, 'raw/vectors.md'));
    c = await until((r) => r.deleted === 1);
    expect(existsSync(join(root, 'wiki/sources/Vector Databases.md'))).toBe(false);
    expect(w.events.filter((e) => e.type === 'compile-failed')).toEqual([]);
    // kb's own writes to wiki/ are recognised: no re-index reported for them.
    expect(w.events.filter((e) => e.type === 'wiki-edit' || e.type === 'wiki-edit-failed')).toEqual([]);

    const code = await w.stop();
    expect([0, 130]).toContain(code);
    expect(w.events.at(-1)?.type).toBe('stopped');
    expect(existsSync(join(root, '.kb', 'lock'))).toBe(false);
    expect(readFileSync(join(root, 'wiki/log.md'), 'utf8')).toMatch(/\] watch \| /);
  }, 60_000);

  it('batches a burst of changes into one compile', async () => {
    const root = fixture();
    // A generous quiet time: a loaded machine may spread the burst's events out (each file's event
    // waits for its size to hold still; with 1 s, one in a clean-clone CI run came after the compile began).
    const w = new Watcher(root, ['--no-initial', '--debounce', '2500']);
    const ready = await w.next((e) => e.type === 'ready');
    for (let i = 1; i <= 6; i++)
      writeFile(root, `raw/notes/note-${i}.md`, `# Note ${i}\n\nNote number ${i} is about topic ${i}.\n`);
    const c = await w.compiled(ready.index);
    expect(report(c.event).new).toBe(6);
    const starts = w.events.filter((e) => e.type === 'compile-start');
    expect(starts).toHaveLength(1);
    // The new folder is among the changes; a file written while chokidar began to watch it may be missing
    // from them (chokidar reads a new folder before watching it), but the compile's walk finds it.
    const changes = starts[0]!['changes'] as string[];
    expect(changes).toContain('notes');
    for (const p of changes.filter((c) => c !== 'notes')) expect(p).toMatch(/^notes\/note-[1-6]\.md$/);
    await new Promise((r) => setTimeout(r, 800));
    expect(w.events.filter((e) => e.type === 'compile-start')).toHaveLength(1);
    await w.stop();
  }, 60_000);

  it('keeps watching after a broken file and after a compile that fails, and says why', async () => {
    const root = fixture();
    const w = new Watcher(root, ['--no-initial', '--lock-wait', '300']);
    const ready = await w.next((e) => e.type === 'ready');

    writeFile(root, 'raw/broken.md', '---\ntitle: [oops\n---\n\nBody of a file with broken frontmatter.\n');
    let c = await w.compiled(ready.index);
    expect(c.event.type).toBe('compiled');
    expect(report(c.event).messages.map((m) => m.ruleId)).toContain('ingest-frontmatter');

    // Another kb process holds the lock: the round that sees good.md fails, watch says why and tries again.
    const holder = await holdLock(root, 'compile');
    writeFile(root, 'raw/good.md', '# Good Note\n\nThis one is fine.\n');
    const failed = await w.next((e) => e.type === 'compile-failed', c.index + 1);
    expect(String(failed.event['reason'])).toMatch(/Another kb process holds the lock: `kb compile` \(pid \d+/);
    expect(String(failed.event['reason'])).toContain(`pid ${holder.pid}`);
    // Nothing was compiled while the lock was held.
    const compiledWhileHeld = w.events.slice(c.index + 1, failed.index).filter((e) => e.type === 'compiled');
    expect(compiledWhileHeld.map((e) => report(e).new)).not.toContain(1);
    // The holder dies without a word (kill -9): the operating system frees its lock, and the retry compiles.
    await holder.kill();
    c = await w.next((e) => e.type === 'compiled' && report(e).new > 0, failed.index + 1);
    expect(report(c.event).new).toBe(1);
    expect(listTree(join(root, 'wiki'))).toContain('sources/Good Note.md');
    await w.stop();
  }, 60_000);

  it('re-indexes an entry a person edits in wiki/ without rewriting it', async () => {
    const root = fixture({
      'raw/rag.md': '# Retrieval Augmented Generation\n\nRAG retrieves passages before generating an answer.\n',
    });
    const w = new Watcher(root);
    const ready = await w.next((e) => e.type === 'ready');
    const file = join(root, 'wiki/sources/Retrieval Augmented Generation.md');
    const edited = `${readFileSync(file, 'utf8').trimEnd()}\n\nMy own note: zanzibar reranking helps.\n`;
    writeFileSync(file, edited);
    const answer = [
      '---',
      'id: answer/my-note',
      'kind: answer',
      'title: My Note',
      'aliases: []',
      'summary: A note written by hand about quokka retrieval.',
      'source_ref: []',
      'entities: []',
      'backlinks: []',
      'version: 1',
      'last_heal_timestamp: 0',
      'content_hash: none',
      '---',
      '',
      '# My Note',
      '',
      'Quokka retrieval links to [[Retrieval Augmented Generation]].',
      '',
    ].join('\n');
    writeFile(root, 'wiki/answers/My Note.md', answer);
    await w.next(
      (e) => e.type === 'wiki-edit' && e['path'] === 'sources/Retrieval Augmented Generation.md',
      ready.index,
    );
    await w.next((e) => e.type === 'wiki-edit' && e['path'] === 'answers/My Note.md', ready.index);
    expect(readFileSync(file, 'utf8')).toBe(edited);
    expect(
      w.events.some((e) => e.type === 'compile-start' && e !== w.events[0] && w.events.indexOf(e) > ready.index),
    ).toBe(false);
    const db = new Database(join(root, 'wiki', 'embeddings.db'), { readonly: true });
    try {
      const src = db
        .prepare(`SELECT human_edited FROM entries WHERE path = ?`)
        .get('sources/Retrieval Augmented Generation.md') as { human_edited: number };
      expect(src.human_edited).toBe(1);
      const note = db.prepare(`SELECT id, kind FROM entries WHERE path = ?`).get('answers/My Note.md') as {
        id: string;
        kind: string;
      };
      expect(note).toEqual({ id: 'answer/my-note', kind: 'answer' });
      const links = db.prepare(`SELECT dst FROM links WHERE src = 'answer/my-note'`).all() as { dst: string }[];
      expect(links.map((l) => l.dst)).toEqual([expect.stringMatching(/^source\//)]);
      const hits = db
        .prepare(`SELECT count(*) n FROM chunks WHERE entry_id = 'answer/my-note' AND text LIKE '%Quokka%'`)
        .get() as { n: number };
      expect(hits.n).toBe(1);
    } finally {
      db.close();
    }
    await w.stop();
  }, 60_000);

  it('kb init my-kb && cd my-kb && kb watch: a file dropped into raw/ is compiled within seconds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-watch-init-'));
    expect(
      (
        await runKb(['init', 'my-kb'], {
          cwd: dir,
          env: { GIT_CONFIG_GLOBAL: join(dir, 'none'), GIT_CONFIG_NOSYSTEM: '1' },
        })
      ).code,
    ).toBe(0);
    const root = join(dir, 'my-kb');
    const w = new Watcher(root);
    const ready = await w.next((e) => e.type === 'ready');
    writeFile(root, 'raw/clipped article.md', '# Clipped Article\n\nSomething worth keeping, clipped from the web.\n');
    const c = await w.compiled(ready.index);
    expect(report(c.event).new).toBe(1);
    expect(listTree(join(root, 'wiki'))).toEqual(
      expect.arrayContaining(['sources/Clipped Article.md', 'index.md', '.obsidian/graph.json']),
    );
    expect(readFileSync(join(root, 'wiki/index.md'), 'utf8')).toContain('[[Clipped Article]]');
    await w.stop();
  }, 60_000);

  it('does not follow a link out of raw/: changes there neither trigger nor reach a compile', async () => {
    const root = fixture({ 'raw/inside.md': '# Inside\n\nA note that lives in raw/.\n' });
    const outside = mkdtempSync(join(tmpdir(), 'kb-watch-outside-'));
    mkdirSync(join(outside, 'secrets'));
    writeFileSync(join(outside, 'secrets', 'shadow.md'), '# Shadow\n\nroot:hash-that-must-stay-private\n');
    symlinkSync(join(outside, 'secrets'), join(root, 'raw', 'etc'));
    const w = new Watcher(root);
    const ready = await w.next((e) => e.type === 'ready');
    const first = w.events.find((e) => e.type === 'compiled')!;
    expect(w.events.filter((e) => e.type === 'change')).toEqual([]);
    expect(report(first).messages.map((m) => m.ruleId)).toContain('ingest-symlink-outside');

    // A change behind the link first, then one inside raw/: only the second is seen.
    writeFileSync(join(outside, 'secrets', 'passwd.md'), '# Passwd\n\nanother private file\n');
    await new Promise((r) => setTimeout(r, 1500));
    writeFile(root, 'raw/later.md', '# Later\n\nA second note in raw/.\n');
    await w.next((e) => e.type === 'compiled' && report(e).new === 1, ready.index);
    const seen = w.events.filter((e) => e.type === 'change').map((e) => e['path']);
    expect(seen).toEqual(['later.md']);
    expect(listTree(join(root, 'wiki')).filter((p) => /shadow|passwd/i.test(p))).toEqual([]);
    await w.stop();
    rmSync(outside, { recursive: true, force: true });
  }, 60_000);
});
