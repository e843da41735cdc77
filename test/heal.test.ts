import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  branches,
  compiledKb,
  exampleEntry,
  git,
  gitInit,
  GIT_ENV,
  SAMPLE_RAW,
  snapshot,
  today,
} from './heal-helpers.js';
import { fixture, read, runKb, writeFile, runKbIn } from './helpers.js';
import { bodyHash, parseEntryFile, stringifyEntry } from '../src/entry/frontmatter.js';
import { heal } from '../src/heal/heal.js';
import type { EntryFrontmatter } from '../src/types.js';
import { closeKb, openKb } from '../src/kb/context.js';

function edit(root: string, path: string, f: (s: string) => string): void {
  writeFileSync(join(root, path), f(readFileSync(join(root, path), 'utf8')));
}

/** A compiled, committed knowledge base seeded with one problem of each structural kind. */
async function seeded(): Promise<string> {
  const root = await compiledKb({
    ...SAMPLE_RAW,
    'raw/old.md': '# Old Notes\n\nNotes about something that is no longer kept around here.\n',
  });
  // broken-link (and the entry becomes edited by a person)
  edit(root, 'wiki/sources/Green Tea.md', (s) => s.replace('## Source', 'See also [[No Such Entry]].\n\n## Source'));
  // missing-backlink on Green Tea and Coffee; missing-summary
  writeFile(
    root,
    'wiki/concepts/Tea Culture.md',
    exampleEntry(
      { title: 'Tea Culture', summary: 'Tea Culture' },
      '# Tea Culture\n\nTea culture in short.\n\nPeople drink [[Green Tea]] in the morning and [[Coffee]] in the afternoon.\n',
    ),
  );
  // schema
  edit(root, 'wiki/sources/Coffee.md', (s) => s.replace(/^version: \d+$/m, 'version: 0'));
  // stale-entry
  edit(root, 'raw/coffee.md', (s) => `${s}\nCold brew steeps for many hours.\n`);
  // deleted-source
  git(root, 'rm', '-q', 'raw/old.md');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'Seed problems');
  // uncompiled-source, not even committed; and an edit the person has not committed
  writeFile(
    root,
    'raw/new.md',
    '# Herbal Infusions\n\nHerbal infusions are made from flowers, fruit or herbs rather than tea leaves.\n',
  );
  edit(root, 'wiki/sources/Green Tea.md', (s) => `${s}\nMy own note, not committed yet.\n`);
  return root;
}

const d = today();

describe('kb lint --heal', { timeout: 400_000 }, () => {
  it('makes one reviewable branch per topic, leaves the checkout byte for byte, writes the changelog', async () => {
    const root = await seeded();
    const lint0 = await runKb(['lint', '--json'], { cwd: root, env: GIT_ENV });
    const rules0 = new Set(
      (JSON.parse(lint0.stdout) as { findings: { ruleId: string }[] }).findings.map((f) => f.ruleId),
    );
    for (const r of [
      'broken-link',
      'missing-backlink',
      'schema',
      'missing-summary',
      'uncompiled-source',
      'deleted-source',
      'stale-entry',
    ])
      expect(rules0).toContain(r);

    const before = snapshot(root);
    const status = git(root, 'status', '--porcelain');
    const head = git(root, 'rev-parse', 'HEAD');
    const r = await runKbIn(['lint', '--heal'], { cwd: root, env: GIT_ENV, timeoutMs: 180_000 });
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(branches(root)).toEqual([`heal/frontmatter-${d}`, `heal/links-${d}`, `heal/sources-${d}`, 'main']);

    // The person's checkout: same branch, same HEAD, same bytes, same status (plus changelog/).
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(root, 'branch', '--show-current').trim()).toBe('main');
    expect(snapshot(root)).toEqual(before);
    expect(git(root, 'status', '--porcelain').replace(/^\?\? changelog\/\n/m, '')).toBe(status);
    expect(git(root, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);

    // Each branch: one [Heal] commit on top of HEAD, versions bumped, heal timestamp set, re-lint clean.
    const rulesOf: Record<string, string[]> = {
      frontmatter: ['schema', 'missing-summary'],
      links: ['broken-link', 'missing-backlink'],
      sources: ['uncompiled-source', 'stale-entry', 'deleted-source'],
    };
    for (const [topic, rules] of Object.entries(rulesOf)) {
      const b = `heal/${topic}-${d}`;
      expect(git(root, 'rev-list', '--count', `main..${b}`).trim()).toBe('1');
      expect(git(root, 'log', '-1', '--format=%s', b)).toMatch(/^\[Heal\] /);
      const changed = git(root, 'diff', '--name-only', `main...${b}`)
        .split('\n')
        .filter((f) => f.startsWith('wiki/sources/') || f.startsWith('wiki/concepts/'));
      expect(changed.length).toBeGreaterThan(0);
      const wt = mkdtempSync(join(tmpdir(), 'kb-branch-'));
      git(root, 'worktree', 'add', '-q', '--detach', join(wt, 'b'), b);
      for (const f of changed) {
        if (!existsSync(join(wt, 'b', f))) continue;
        const text = read(join(wt, 'b'), f);
        expect(text).toMatch(/^last_heal_timestamp: '?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z'?$/m);
        let was: string | undefined;
        try {
          was = git(root, 'show', `main:${f}`).match(/^version: (\d+)$/m)?.[1];
        } catch {
          was = undefined; // a new entry
        }
        if (was) expect(Number(text.match(/^version: (\d+)$/m)?.[1])).toBeGreaterThan(Number(was));
      }
      const relint = await runKbIn(['lint', '--json', '--rule', rules.join(',')], { cwd: join(wt, 'b'), env: GIT_ENV });
      expect((JSON.parse(relint.stdout) as { findings: unknown[] }).findings).toEqual([]);
      git(root, 'worktree', 'remove', '--force', join(wt, 'b'));
    }
    // The new raw file went onto the sources branch with its entry; the person's edit is not on any branch.
    expect(git(root, 'show', `heal/sources-${d}:raw/new.md`)).toContain('Herbal infusions');
    expect(git(root, 'ls-tree', '-r', '--name-only', `heal/sources-${d}`)).toMatch(
      /^wiki\/sources\/Herbal Infusions\.md$/m,
    );
    expect(git(root, 'ls-tree', '-r', '--name-only', `heal/sources-${d}`)).not.toMatch(/Old Notes/);
    expect(git(root, 'show', `heal/links-${d}:wiki/sources/Green Tea.md`)).not.toContain('My own note');
    expect(git(root, 'show', `heal/links-${d}:wiki/sources/Green Tea.md`)).not.toContain('[[No Such Entry]]');

    const log = read(root, `changelog/${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}.md`);
    for (const t of ['frontmatter', 'links', 'sources']) expect(log).toContain(`heal/${t}-${d}`);
    expect(log).toMatch(/Re-lint on the branch: \d+ → 0 findings/);
    expect(log).toContain('broken-link');
    expect(log).toContain('git merge heal/links-');

    // Same findings again today: no new branch, the changelog says where they are.
    const again = await runKbIn(['lint', '--heal'], { cwd: root, env: GIT_ENV, timeoutMs: 180_000 });
    expect(again.code).toBe(0);
    expect(branches(root)).toEqual([`heal/frontmatter-${d}`, `heal/links-${d}`, `heal/sources-${d}`, 'main']);
    expect(again.stdout).toContain('already made today');
  }, 400_000);

  it('says how to get a git repository when there is none', async () => {
    const root = fixture({ 'wiki/concepts/A.md': exampleEntry({ title: 'A' }, '# A\n\nSee [[Nowhere]].\n') });
    const r = await runKbIn(['lint', '--heal'], { cwd: root, env: GIT_ENV });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('git init');
  });

  it('exits 0 quietly with nothing to do', async () => {
    const root = fixture({ 'wiki/concepts/A.md': exampleEntry({ title: 'A' }, '# A\n\nText.\n') });
    gitInit(root);
    const r = await runKbIn(['lint', '--heal'], { cwd: root, env: GIT_ENV });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(branches(root)).toEqual(['main']);
    // --dry-run says so, in one line.
    const dry = await runKbIn(['lint', '--heal', '--dry-run'], { cwd: root, env: GIT_ENV });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Nothing to heal: [^\n]+\n$/);
  });

  it('--dry-run prints the plan and writes nothing', async () => {
    const root = fixture({
      'wiki/concepts/A.md': exampleEntry({ title: 'A' }, '# A\n\nSee [[Nowhere]].\n'),
    });
    gitInit(root);
    const before = snapshot(root);
    const r = await runKbIn(['lint', '--heal', '--dry-run'], { cwd: root, env: GIT_ENV });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`would make \`heal/links-${d}\``);
    expect(branches(root)).toEqual(['main']);
    expect(existsSync(join(root, 'changelog'))).toBe(false);
    expect(snapshot(root)).toEqual(before);
  });

  it('--merge merges a clean branch and refreshes the store and index', async () => {
    const root = await compiledKb(SAMPLE_RAW);
    edit(root, 'wiki/sources/Coffee.md', (s) =>
      s.replace('## Source', 'Compare [[Nowhere Else]] and [[green tea]].\n\n## Source'),
    );
    git(root, 'commit', '-q', '-am', 'a broken link');
    const r = await runKbIn(['lint', '--heal', '--merge'], { cwd: root, env: GIT_ENV, timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('merged into the current branch');
    expect(git(root, 'log', '-1', '--format=%s', 'main')).toMatch(/\[Heal\]|Merge/);
    expect(read(root, 'wiki/sources/Coffee.md')).not.toContain('[[Nowhere Else]]');
    // Coffee links to Green Tea now: its backlinks say so (the body section is off by default).
    expect(read(root, 'wiki/sources/Green Tea.md')).toMatch(/^backlinks:\n(?: {2}- .*\n)* {2}- source\/coffee\n/m);
    expect(git(root, 'status', '--porcelain').replace(/^\?\? changelog\/\n/m, '')).toBe('');
    const after = await runKbIn(['lint', '--json', '--rule', 'broken-link,missing-backlink'], {
      cwd: root,
      env: GIT_ENV,
    });
    expect((JSON.parse(after.stdout) as { findings: unknown[] }).findings).toEqual([]);
  });

  it('--merge killed at any point never moves or loses a file the person has not committed; the next --merge finishes', async () => {
    for (const point of ['merge-staged', 'merge-done']) {
      const root = await compiledKb(SAMPLE_RAW);
      // New sources dropped in raw/, not added to git: heal compiles them on a branch that commits them.
      const files: Record<string, Buffer> = {
        'raw/herbal.md': Buffer.from(
          '# Herbal Infusions\n\nHerbal infusions are made from flowers,  \nfruit or herbs rather than tea leaves.\n',
        ),
        'raw/草药茶.md': Buffer.from(
          '# 草药茶\r\n\r\n草药茶是用花、果实或草本植物泡的。  \r\n它不含茶叶。\r\n',
          'utf8',
        ),
      };
      const intact = () =>
        Object.entries(files).every(([p, b]) => existsSync(join(root, p)) && readFileSync(join(root, p)).equals(b));
      for (const [p, b] of Object.entries(files)) writeFileSync(join(root, p), b);
      const killed = await runKb(['lint', '--heal', '--merge'], {
        cwd: root,
        env: { ...GIT_ENV, KB_TEST_KILL_AT: point },
        timeoutMs: 180_000,
      });
      expect(killed.code, killed.stderr).toBeNull(); // killed for real, by SIGKILL
      expect(intact(), point).toBe(true);
      // It was killed where it meant to be: the files staged for the merge, or the merge made.
      if (point === 'merge-staged') expect(git(root, 'ls-files', '--', 'raw')).toMatch(/herbal\.md/);
      else expect(git(root, 'ls-tree', '-r', '--name-only', 'HEAD', '--', 'raw')).toMatch(/herbal\.md/);

      const again = await runKbIn(['lint', '--heal', '--merge'], { cwd: root, env: GIT_ENV, timeoutMs: 180_000 });
      expect(again.code, again.stderr).toBe(0);
      expect(intact(), point).toBe(true);
      expect(existsSync(join(root, '.kb/heal-aside'))).toBe(false);
      // Merged: the files are committed as they were, the checkout clean, their entries there.
      for (const [p, b] of Object.entries(files))
        expect(execFileSync('git', ['show', `HEAD:${p}`], { cwd: root }).equals(b), p).toBe(true);
      expect(git(root, 'status', '--porcelain').replace(/^\?\? changelog\/\n/m, '')).toBe('');
      expect(existsSync(join(root, 'wiki/sources/Herbal Infusions.md'))).toBe(true);
      expect(existsSync(join(root, 'wiki/sources/草药茶.md'))).toBe(true);
    }
  });

  it('puts back a file an interrupted merge of an earlier kb had set aside in .kb/heal-aside', async () => {
    const root = await compiledKb(SAMPLE_RAW);
    writeFile(root, '.kb/heal-aside/raw/mine.md', '# Mine\n\nMy own words.  \n');
    writeFile(root, '.kb/heal-aside/raw/both.md', 'copy kept\n');
    writeFile(root, 'raw/both.md', 'a different file now\n');
    const r = await runKbIn(['lint', '--heal', '--dry-run'], { cwd: root, env: GIT_ENV, timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(read(root, 'raw/mine.md')).toBe('# Mine\n\nMy own words.  \n');
    expect(existsSync(join(root, '.kb/heal-aside/raw/mine.md'))).toBe(false);
    // What cannot go back without overwriting something stays where it is, and the report says so.
    expect(read(root, '.kb/heal-aside/raw/both.md')).toBe('copy kept\n');
    expect(read(root, 'raw/both.md')).toBe('a different file now\n');
    expect(r.stdout).toContain('raw/mine.md: put back');
    expect(r.stdout).toMatch(/raw\/both\.md: a copy .* is kept in \.kb\/heal-aside/);
  });

  it("keeps a person's lines byte for byte (hard-break trailing spaces) on the branch and after --merge", async () => {
    const root = await compiledKb(SAMPLE_RAW);
    const mine =
      'My tasting notes:  \nfirst steep, grassy  \nsecond steep, sweet\n\n    indented, with a tab\t\n\nSee [[No Such Entry]] too.  \nLast line.  \n';
    edit(root, 'wiki/sources/Green Tea.md', (s) => `${s}\n${mine}`);
    edit(
      root,
      'wiki/sources/Coffee.md',
      (s) => `${s.replace(/^version: \d+$/m, 'version: 0')}\n${mine.replace('[[No Such Entry]]', 'nothing')}`,
    );
    git(root, 'commit', '-q', '-am', 'my notes, a broken link and a bad version');
    const body = (text: string) => text.slice(text.indexOf('\n---\n') + 5);
    const green = body(read(root, 'wiki/sources/Green Tea.md'));
    const coffee = body(read(root, 'wiki/sources/Coffee.md'));

    for (const [rule, topic] of [
      ['broken-link', 'links'],
      ['schema', 'frontmatter'],
    ]) {
      const r = await runKbIn(['lint', '--heal', '--merge', '--rule', rule!], {
        cwd: root,
        env: GIT_ENV,
        timeoutMs: 180_000,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('merged into the current branch');
      const onBranch = git(
        root,
        'show',
        `heal/${topic}-${d}:wiki/sources/${topic === 'links' ? 'Green Tea' : 'Coffee'}.md`,
      );
      if (topic === 'links') expect(body(onBranch)).toBe(green.replace('[[No Such Entry]]', 'No Such Entry'));
      else expect(body(onBranch)).toBe(coffee);
    }
    // After both merges, in the checkout: only the broken link changed.
    expect(body(read(root, 'wiki/sources/Green Tea.md'))).toBe(green.replace('[[No Such Entry]]', 'No Such Entry'));
    expect(body(read(root, 'wiki/sources/Coffee.md'))).toBe(coffee);
    expect(read(root, 'wiki/sources/Coffee.md')).toMatch(/^version: [1-9]/m);
  });

  it("a healed entry kb wrote stays kb's: content_hash follows the fix, compile is not blocked by it; an entry a person edited stays theirs", async () => {
    const root = await compiledKb({
      ...SAMPLE_RAW,
      'raw/咖啡.md': '# 咖啡\n\n咖啡是用烘焙过的咖啡豆冲泡的。咖啡在世界各地都有人喝。浓缩咖啡是一种浓缩的咖啡。\n',
    });
    // As kb might have written them: a link that names nothing (in a Chinese-named entry), and a
    // frontmatter that lost its content_hash (the body still kb's, as the store remembers).
    const asKbWrote = (path: string, f: (body: string) => string, drop = false) => {
      const { data, body } = parseEntryFile(read(root, path));
      const b = f(body);
      data['content_hash'] = bodyHash(b);
      if (drop) delete data['content_hash'];
      writeFileSync(join(root, path), stringifyEntry(data as unknown as EntryFrontmatter, b));
    };
    asKbWrote('wiki/sources/咖啡.md', (b) => b.replace('\n## ', '\n另见[[不存在的条目]]。\n\n## '));
    asKbWrote('wiki/sources/Green Tea.md', (b) => b, true);
    // A person's edit, with a broken link of theirs.
    edit(root, 'wiki/sources/Coffee.md', (s) => `${s}\nMy note: see [[Nowhere]].\n`);
    git(root, 'commit', '-q', '-am', 'problems');
    const edited = async () =>
      (JSON.parse((await runKbIn(['status', '--json'], { cwd: root })).stdout) as { entries: { humanEdited: number } })
        .entries.humanEdited;
    expect(await edited()).toBe(2); // Coffee, and Green Tea without its hash

    const r = await runKbIn(['lint', '--heal', '--merge'], { cwd: root, env: GIT_ENV, timeoutMs: 180_000 });
    expect(r.code, r.stderr).toBe(0);
    for (const path of ['wiki/sources/咖啡.md', 'wiki/sources/Green Tea.md']) {
      const { data, body } = parseEntryFile(read(root, path));
      expect(data['content_hash'], path).toBe(bodyHash(body));
      expect(data['version'], path).toBe(2);
    }
    expect(read(root, 'wiki/sources/咖啡.md')).not.toContain('[[不存在的条目]]');
    expect(read(root, 'wiki/sources/Coffee.md')).not.toContain('[[Nowhere]]');
    expect(await edited()).toBe(1); // only the person's Coffee

    // Compile leaves the person's entry alone and updates the healed ones when their sources change.
    writeFile(root, 'raw/咖啡.md', '# 咖啡\n\n咖啡是用烘焙过的咖啡豆冲泡的。冷萃咖啡要泡很多个小时。\n');
    writeFile(root, 'raw/tea.md', `${read(root, 'raw/tea.md')}\nSencha is the most popular green tea in Japan.\n`);
    writeFile(root, 'raw/coffee.md', `${read(root, 'raw/coffee.md')}\nA flat white is made with espresso.\n`);
    const c = await runKbIn(['compile', '--json'], { cwd: root });
    expect(c.code, c.stderr).toBe(0);
    expect((JSON.parse(c.stdout) as { protected: string[] }).protected).toEqual(['wiki/sources/Coffee.md']);
    expect(read(root, 'wiki/sources/咖啡.md')).toContain('冷萃咖啡');
    expect(read(root, 'wiki/sources/Green Tea.md')).toContain('Sencha');
    expect(read(root, 'wiki/sources/Coffee.md')).toContain('My note: see Nowhere.');
    expect(read(root, 'wiki/sources/Coffee.md')).not.toContain('flat white');
    expect(await edited()).toBe(1);
  });

  it('the report says only what changed, field by field; "still" hints name what the person can do; no fix claimed that was undone', async () => {
    const root = fixture({
      // version 0 and a summary that only repeats the title: heal can fix both
      'wiki/concepts/Alpha.md': exampleEntry(
        { title: 'Alpha', version: 0, summary: 'Alpha', backlinks: ['concept/beta'] },
        '# Alpha\n\nAlpha is the first letter of the Greek alphabet. It comes before beta.\n',
      ),
      // a field heal has no default for: it cannot fix this one
      'wiki/concepts/Beta.md': exampleEntry(
        { title: 'Beta', updated: 'yesterday' },
        '# Beta\n\nBeta comes after [[Alpha]].\n',
      ),
    });
    gitInit(root);
    const r = await runKbIn(['lint', '--heal'], { cwd: root, env: GIT_ENV, timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const log = read(root, `changelog/${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}.md`);
    const changed = /What changed:\n\n((?:- .*\n)+)/.exec(log)?.[1];
    expect(changed).toBe(
      '- wiki/concepts/Alpha.md: summary "Alpha" → "Alpha is the first letter of the Greek alphabet. It comes …\n' +
        '- wiki/concepts/Alpha.md: version 0 → 1\n',
    );
    expect(log).not.toContain('frontmatter repaired');
    expect(log).toMatch(
      /Could not fix:\n\n- wiki\/concepts\/Beta\.md: heal has no default for \/updated must match pattern .*\n/,
    );
    const still = /Still reported after the fix:\n\n((?:- .*\n)+)/.exec(log)?.[1] ?? '';
    expect(still).toContain('wiki/concepts/Beta.md');
    expect(still).toContain('fix the field by hand');
    expect(still).not.toContain('kb lint --heal');
    expect(r.stdout).toMatch(/still: wiki\/concepts\/Beta\.md/);
    for (const l of r.stdout.split('\n').filter((x) => x.includes('still:'))) expect(l).not.toContain('kb lint --heal');
  });

  it('a branch not merged for a new error says so, naming it, and its changelog lists what it did', async () => {
    const section = (...titles: string[]) =>
      `<!-- kb:backlinks -->\n## Backlinks\n\n${titles.map((t) => `- [[${t}]]`).join('\n')}\n<!-- /kb:backlinks -->\n`;
    const root = fixture({
      'kb.config.json': JSON.stringify({ lint: { rules: { 'orphan-entry': 'error' } } }),
      // raw/old.md is gone: heal removes its entry, and with it the only link to Lonely Concept
      'wiki/sources/Old Notes.md': exampleEntry(
        { title: 'Old Notes', kind: 'source', source_ref: ['raw/old.md'], backlinks: ['concept/hub'] },
        `# Old Notes\n\nAbout [[Hub]] and [[Lonely Concept]].\n\n${section('Hub')}`,
      ),
      'wiki/concepts/Hub.md': exampleEntry(
        { title: 'Hub', backlinks: ['concept/lonely-concept', 'source/old-notes'] },
        `# Hub\n\nSee [[Old Notes]].\n\n${section('Lonely Concept', 'Old Notes')}`,
      ),
      'wiki/concepts/Lonely Concept.md': exampleEntry(
        { title: 'Lonely Concept', backlinks: ['source/old-notes'] },
        `# Lonely Concept\n\nSee [[Hub]].\n\n${section('Old Notes')}`,
      ),
    });
    gitInit(root);
    const lint0 = await runKbIn(['lint', '--json'], { cwd: root, env: GIT_ENV });
    expect((JSON.parse(lint0.stdout) as { findings: { ruleId: string }[] }).findings.map((f) => f.ruleId)).toEqual([
      'deleted-source',
    ]);

    const r = await runKbIn(['lint', '--heal', '--merge'], { cwd: root, env: GIT_ENV, timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const why = 'the fix brings 1 new error on the branch: wiki/concepts/Lonely Concept.md [orphan-entry]';
    expect(r.stdout).toContain(`not merged: ${why}`);
    expect(r.stdout).not.toContain('findings of its rules');
    // Nothing tells the person to run what they just ran, or what would not merge this branch.
    expect(r.stdout).not.toContain('kb lint --heal --merge');
    const log = read(root, `changelog/${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}.md`);
    expect(log).toContain(`Not merged: ${why}.`);
    expect(log).not.toContain('kb lint --heal --merge');
    expect(/What changed:\n\n((?:- .*\n)+)/.exec(log)?.[1]).toBe(
      [
        '- wiki/sources/Old Notes.md: removed (its source raw/old.md is gone)',
        '- wiki/concepts/Hub.md: 1 broken link fixed',
        '- wiki/concepts/Hub.md: backlinks regenerated (1)',
        '- wiki/concepts/Lonely Concept.md: backlinks regenerated (0)',
        '',
      ].join('\n'),
    );
    expect(git(root, 'log', '-1', '--format=%B', `heal/sources-${d}`)).toContain(`Not clean: ${why}.`);
    // The next run finds the same branch and still gives the right reason.
    const again = await runKbIn(['lint', '--heal', '--merge'], { cwd: root, env: GIT_ENV, timeoutMs: 120_000 });
    expect(again.stdout).toContain(`not merged: ${why}`);
  });

  it('waits for nobody: a held lock is an error naming the holder', async () => {
    const root = fixture({ 'wiki/concepts/A.md': exampleEntry({ title: 'A' }, '# A\n\nSee [[Nowhere]].\n') });
    gitInit(root);
    writeFile(
      root,
      '.kb/lock',
      JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname(), command: 'compile', started: 1 }),
    );
    // The wait for a compile to let go is shortened: what is tested is the error once it is over.
    const r = await runKb(['lint', '--heal'], { cwd: root, env: { ...GIT_ENV, KB_LOCK_WAIT_MS: '300' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('kb compile');
    expect(branches(root)).toEqual(['main']);
  });

  it('after an interrupted run: no stray worktree, no half-made branch, and the next run is clean', async () => {
    const root = fixture({ 'wiki/concepts/A.md': exampleEntry({ title: 'A' }, '# A\n\nSee [[Nowhere]].\n') });
    gitInit(root);
    // What a killed heal leaves: a worktree with uncommitted work, and its lock (its pid is gone).
    git(root, 'worktree', 'add', '-q', '--detach', join(root, '.kb/heal/heal_links-x'), 'HEAD');
    writeFile(root, '.kb/heal/heal_links-x/wiki/concepts/A.md', 'half-written');
    writeFile(
      root,
      '.kb/lock',
      JSON.stringify({
        pid: 2 ** 22 + 17,
        host: (await import('node:os')).hostname(),
        command: 'lint --heal',
        started: 1,
      }),
    );
    const r = await runKbIn(['lint', '--heal'], { cwd: root, env: GIT_ENV });
    expect(r.code).toBe(0);
    expect(git(root, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(existsSync(join(root, '.kb/heal/heal_links-x'))).toBe(false);
    expect(branches(root)).toEqual([`heal/links-${d}`, 'main']);
    expect(git(root, 'show', `heal/links-${d}:wiki/concepts/A.md`)).not.toContain('half-written');
    expect(existsSync(join(root, '.kb/lock'))).toBe(false);
  });

  it('interrupted in the middle of a branch: nothing committed, no branch, no worktree left', async () => {
    const root = fixture({ 'wiki/concepts/A.md': exampleEntry({ title: 'A' }, '# A\n\nSee [[Nowhere]].\n') });
    gitInit(root);
    const ctx = openKb(root, { env: { ...process.env, ...GIT_ENV } });
    const stop = new AbortController();
    try {
      await expect(heal(ctx, { signal: stop.signal, onStep: () => stop.abort() })).rejects.toThrow(/interrupted/i);
    } finally {
      closeKb(ctx);
    }
    expect(branches(root)).toEqual(['main']);
    expect(git(root, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(git(root, 'status', '--porcelain')).toBe('');
  });
});
