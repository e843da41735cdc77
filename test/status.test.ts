import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runKb, writeFile, runKbIn } from './helpers.js';
import type { KbStatus } from '../src/status/status.js';

describe('kb status', () => {
  it('counts sources compiled, pending, stale, failed and removed; entries; links; heal branches; store; spend', async () => {
    const root = fixture({
      'kb.config.json': JSON.stringify({ ingest: { maxFileBytes: 2000 } }),
      'raw/a.md': '# Alpha\n\nAlpha talks about Vector Databases and embeddings.\n',
      'raw/b.md': '# Beta\n\nBeta also talks about Vector Databases.\n',
      'raw/c.md': '# Gamma\n\nGamma is short-lived.\n',
      'raw/big.txt': 'x'.repeat(5000),
    });
    const git = (...a: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...a], { cwd: root, stdio: 'pipe' });
    git('init', '-q', '-b', 'main');
    git('commit', '-q', '--allow-empty', '-m', 'start');
    git('checkout', '-q', '-b', 'heal/broken-links-20261202');
    git('commit', '-q', '--allow-empty', '-m', '[Heal] fix 1 broken link');
    git('checkout', '-q', 'main');
    expect((await runKb(['compile'], { cwd: root })).code).toBe(0);

    writeFile(root, 'raw/a.md', '# Alpha\n\nAlpha changed after the compile.\n'); // stale
    writeFile(root, 'raw/new.md', '# Newcomer\n\nNot compiled yet.\n'); // pending
    rmSync(join(root, 'raw/c.md')); // removed
    const beta = join(root, 'wiki/sources/Beta.md');
    writeFileSync(beta, `${readFileSync(beta, 'utf8').trimEnd()}\n\nSee also [[Nowhere At All]].\n`); // a person's edit with a broken link

    const r = await runKbIn(['status', '--json'], { cwd: join(root, 'raw') });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as KbStatus;
    expect(s.root).toBe(root);
    expect(s.sources).toMatchObject({
      total: 4,
      compiled: 1,
      pending: 1,
      stale: 1,
      failed: 1,
      removed: 1,
      pendingPaths: ['new.md'],
      stalePaths: ['a.md'],
      removedPaths: ['c.md'],
    });
    expect(s.sources.failedPaths).toEqual([{ path: 'big.txt', reason: expect.stringMatching(/expected at most/) }]);
    expect(s.entries.byKind['source']).toBe(3);
    expect(s.entries.byKind['concept']).toBeGreaterThanOrEqual(0);
    expect(s.entries.total).toBe(
      s.entries.byKind['source']! + s.entries.byKind['concept']! + s.entries.byKind['answer']!,
    );
    expect(s.entries.humanEdited).toBe(1);
    expect(s.links.broken).toBe(1);
    expect(s.links.brokenLinks[0]).toMatchObject({ file: 'sources/Beta.md', target: 'Nowhere At All' });
    expect(s.links.total).toBeGreaterThanOrEqual(1);
    const line =
      readFileSync(beta, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('[[Nowhere At All]]')) + 1;
    expect(s.links.brokenLinks[0]!.line).toBe(line);
    expect(s.lastCompile).toBeGreaterThan(Date.now() / 1000 - 600);
    expect(s.lastHeal).toBeGreaterThan(Date.now() / 1000 - 600); // the heal branch's commit
    expect(s.healBranches).toEqual(['heal/broken-links-20261202']);
    expect(s.store.bytes).toBeGreaterThan(0);
    expect(s.store.chunks).toBeGreaterThan(0);
    expect(s.spend).toMatchObject({ calls: 0, usd: 0 });

    const human = await runKbIn(['status'], { cwd: root });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/sources\s+4 in raw\/: 1 compiled, 1 pending, 1 stale, 1 failed, 1 removed/);
    expect(human.stdout).toContain('pending  raw/new.md');
    expect(human.stdout).toMatch(/links\s+\d+, 1 broken/);
    expect(human.stdout).toContain('[[Nowhere At All]]');
    expect(human.stdout).toContain('1 heal branch waiting for review');
    expect(human.stdout).toMatch(/spend\s+\$0\.00 in 0 model calls/);
  }, 60_000);

  it('lists only heal branches not merged into the current branch, and suggests commands the CLI accepts', async () => {
    const root = fixture();
    const git = (...a: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...a], {
        cwd: root,
        stdio: 'pipe',
        encoding: 'utf8',
      });
    git('init', '-q', '-b', 'main');
    git('commit', '-q', '--allow-empty', '-m', 'start');
    for (const [name, file] of [
      ['heal/links-20260101', 'merged.md'],
      ['heal/sources-20260101', 'waiting.md'],
    ] as const) {
      git('checkout', '-q', '-b', name);
      writeFile(root, `notes/${file}`, `${name}\n`);
      git('add', '-A');
      git('commit', '-q', '-m', `[Heal] ${name}`);
      git('checkout', '-q', 'main');
    }
    git('merge', '-q', '--no-ff', '--no-edit', 'heal/links-20260101');

    const r = await runKbIn(['status', '--json'], { cwd: root });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as KbStatus).healBranches).toEqual(['heal/sources-20260101']);

    const human = await runKbIn(['status'], { cwd: root });
    expect(human.stdout).toContain('1 heal branch waiting for review');
    expect(human.stdout).not.toContain('heal/links-20260101');
    // Every `kb …` command the hints suggest is one the CLI accepts.
    const suggested = [...human.stdout.matchAll(/`(kb [^`]+)`/g)].map((m) => m[1]!);
    expect(suggested).toContain('kb lint --heal --merge');
    for (const cmd of suggested) {
      const args = cmd.split(' ').slice(1);
      if (args.includes('--heal')) args.push('--dry-run');
      const run = await runKbIn(args, { cwd: root });
      expect(run.code, `${cmd}: ${run.stderr}`).not.toBe(2);
    }
  }, 120_000);

  it('works on a knowledge base never compiled, outside git', async () => {
    const root = fixture({ 'raw/a.md': '# A\n\ntext\n' });
    const r = await runKbIn(['status', '--json', '--kb', root], { cwd: '/' });
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as KbStatus;
    expect(s.sources).toMatchObject({ total: 1, pending: 1, compiled: 0 });
    expect(s.entries.total).toBe(0);
    expect(s.lastCompile).toBeNull();
    expect(s.healBranches).toBeNull();
  }, 30_000);

  it('reads a raw file only where compile would: same size and time as compiled is compiled, as compile skips it', async () => {
    const root = fixture({
      'raw/a.md': '# Alpha\n\nAlpha talks about Vector Databases and embeddings.\n',
      'raw/b.md': '# Beta\n\nBeta also talks about Vector Databases.\n',
    });
    // Files settled well before the compile (not within its racy two seconds).
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const f of ['a.md', 'b.md']) utimesSync(join(root, 'raw', f), hourAgo, hourAgo);
    expect((await runKbIn(['compile', '--offline'], { cwd: root })).code).toBe(0);
    // b.md rewritten in place, same size, its time put back: compile will not read it, and status agrees.
    const b = join(root, 'raw/b.md');
    writeFileSync(b, readFileSync(b, 'utf8').replace('Beta also', 'Beta even'));
    utimesSync(b, hourAgo, hourAgo);
    writeFile(root, 'raw/a.md', '# Alpha\n\nAlpha changed after the compile.\n');
    const s = JSON.parse((await runKbIn(['status', '--json'], { cwd: root })).stdout) as KbStatus;
    expect(s.sources, JSON.stringify(s.sources)).toMatchObject({ compiled: 1, stale: 1, stalePaths: ['a.md'] });
    const c = await runKbIn(['compile', '--offline'], { cwd: root });
    expect(c.stdout + c.stderr).toMatch(/0 new, 1 updated, 1 unchanged/);
  });
});
