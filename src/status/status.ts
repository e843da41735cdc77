import { statSame } from '../ingest/stat-same.js';
import { epochSeconds } from '../entry/dates.js';
import { fileRow } from '../store/store.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import type { KbContext } from '../kb/context.js';
import { maxBytesFor } from '../ingest/detect.js';
import { walkRaw } from '../ingest/walk.js';
import { sha256 } from '../util/hash.js';
import { bodyLinkTargets, scanWiki } from '../entry/wiki.js';
import { extractWikiLinks } from '../parse/links.js';
import { linkTable, resolveLink } from '../entry/links.js';
import { readSpend, type SpendSummary } from '../model/cache.js';

export interface BrokenLink {
  /** Wiki path of the entry holding the link. */
  file: string;
  line: number;
  column: number;
  target: string;
}

export interface KbStatus {
  root: string;
  sources: {
    /** Files under raw/ now. */
    total: number;
    /** Compiled, and unchanged since. */
    compiled: number;
    /** New files never compiled (or a compile that did not finish). */
    pending: number;
    /** Changed since they were compiled. */
    stale: number;
    /** kb could not read or convert them. */
    failed: number;
    /** Compiled once, gone from raw/ now: the next compile removes their entries. */
    removed: number;
    pendingPaths: string[];
    stalePaths: string[];
    failedPaths: { path: string; reason: string }[];
    removedPaths: string[];
  };
  entries: { total: number; byKind: Record<string, number>; humanEdited: number; unreadable: number };
  links: { total: number; broken: number; brokenLinks: BrokenLink[] };
  /** Unix seconds, or null when never. */
  lastCompile: number | null;
  /** The last compile stopped before it finished (the next one completes it). */
  compileInterrupted: boolean;
  /** The newest of: an entry's last_heal_timestamp, the last commit on a heal/* branch. */
  lastHeal: number | null;
  /** `heal/*` branches not merged into the checked-out branch yet; null when the knowledge base is not a git repository. */
  healBranches: string[] | null;
  store: { path: string; bytes: number; documents: number; chunks: number; vectors: number };
  spend: SpendSummary;
}

function fileSize(p: string): number {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
}

/**
 * `heal/*` branches with the time of their last commit and whether the checked-out branch already
 * holds them (a merged branch waits for nobody); null outside a git repository.
 */
function healBranches(root: string): { name: string; committed: number; merged: boolean }[] | null {
  try {
    const inside = execFileSync('git', ['rev-parse', '--is-inside-work-tree'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
    }).trim();
    if (inside !== 'true') return null;
    const refs = (args: string[]) =>
      execFileSync('git', ['for-each-ref', ...args, 'refs/heads/heal/'], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'ignore'],
        encoding: 'utf8',
      });
    const out = refs(['--format=%(refname:short) %(committerdate:unix)']);
    // A repository without a commit has no HEAD to compare with: nothing is merged into it.
    const hasHead =
      spawnSync('git', ['rev-parse', '--verify', '-q', 'HEAD'], { cwd: root, stdio: 'ignore' }).status === 0;
    const unmerged = new Set(
      (hasHead ? refs(['--no-merged=HEAD', '--format=%(refname:short)']) : out.replace(/ \d+$/gm, ''))
        .split('\n')
        .filter(Boolean),
    );
    return out
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .map((l) => {
        const i = l.lastIndexOf(' ');
        const name = l.slice(0, i);
        return { name, committed: Number(l.slice(i + 1)) || 0, merged: !unmerged.has(name) };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    return null;
  }
}

const num = (v: string | undefined): number | null =>
  v !== undefined && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : null;

/** Sources: raw/ now against what the store recorded at the last compile. */
function sourceStatus(ctx: KbContext): KbStatus['sources'] {
  const { paths, store, config } = ctx;
  const walk = walkRaw(paths.raw, { ignore: config.ingest.ignore });
  const docs = new Map([...store.documentsByFile()].map(([f, rows]) => [f, fileRow(rows)]));
  const sources: KbStatus['sources'] = {
    total: walk.files.length,
    compiled: 0,
    pending: 0,
    stale: 0,
    failed: 0,
    removed: 0,
    pendingPaths: [],
    stalePaths: [],
    failedPaths: [],
    removedPaths: [],
  };
  const seen = new Set<string>();
  for (const f of walk.files) {
    seen.add(f.path);
    const doc = docs.get(f.path);
    if (!doc || doc.status === 'pending') {
      sources.pending++;
      sources.pendingPaths.push(f.path);
      continue;
    }
    let hash: string;
    // What compile would skip unread (same size and time as compiled) is not read here either.
    if (statSame(doc, f)) hash = doc.hash;
    else if (f.size > maxBytesFor(f.path, config.ingest)) hash = sha256(`too-large:${f.size}:${f.mtimeMs}`);
    else {
      try {
        hash = sha256(readFileSync(f.absPath));
      } catch (err) {
        sources.failed++;
        sources.failedPaths.push({
          path: f.path,
          reason: `Cannot read file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        });
        continue;
      }
    }
    if (hash !== doc.hash) {
      sources.stale++;
      sources.stalePaths.push(f.path);
    } else if (doc.status === 'ok') sources.compiled++;
    else {
      sources.failed++;
      sources.failedPaths.push({ path: f.path, reason: doc.error?.split('\t').pop() ?? doc.status });
    }
  }
  for (const p of docs.keys()) {
    if (seen.has(p)) continue;
    sources.removed++;
    sources.removedPaths.push(p);
  }
  return sources;
}

/**
 * `kb status`: where the knowledge base stands. Reads raw/ (hashing a file compile would read),
 * the store, the wiki files and git; changes nothing.
 */
export function computeStatus(ctx: KbContext): KbStatus {
  const { paths, store } = ctx;
  const sources = sourceStatus(ctx);

  // Entries and links: the wiki files are the truth (a person may have edited them). Files whose
  // size and mtime are what compile recorded are not parsed again.
  const scan = scanWiki(paths.wiki, store.scanCache({ readOnly: true }));
  const byKind: Record<string, number> = { source: 0, concept: 0, answer: 0 };
  let humanEdited = 0;
  let lastHeal = num(store.getMeta('last_heal'));
  const table = linkTable(scan.files);
  // Many links name the same few entries: resolve each target once.
  const resolves = new Map<string, boolean>();
  const resolved = (target: string) => {
    let ok = resolves.get(target);
    if (ok === undefined) {
      ok = resolveLink(target, table).length > 0;
      resolves.set(target, ok);
    }
    return ok;
  };
  const brokenLinks: BrokenLink[] = [];
  let total = 0;
  for (const e of scan.entries) {
    byKind[e.fm.kind] = (byKind[e.fm.kind] ?? 0) + 1;
    if (e.humanEdited) humanEdited++;
    const healed = epochSeconds(e.fm.last_heal_timestamp) || null;
    if (healed && (lastHeal === null || healed > lastHeal)) lastHeal = healed;
    // The targets compile recorded for a file unchanged since: its body is not read unless a link broke.
    const targets = e.links ?? bodyLinkTargets(e.body);
    total += targets.length;
    // [[#Heading]] (no target) is a link inside the same entry.
    if (targets.every((t) => !t || resolved(t))) continue;
    // Frontmatter lines come before the body: report body lines as lines of the file.
    const offset = e.text.split('\n').length - e.body.split('\n').length;
    for (const l of extractWikiLinks(e.body)) {
      if (l.target && !resolved(l.target))
        brokenLinks.push({ file: e.path, line: l.line + offset, column: l.column, target: l.target });
    }
  }

  // Heal works on branches: a heal not merged yet shows only as its branch's last commit.
  const branches = healBranches(paths.root);
  for (const b of branches ?? [])
    if (b.committed > 0 && (lastHeal === null || b.committed > lastHeal)) lastHeal = b.committed;

  const counts = store.counts();
  const storeBytes = fileSize(paths.db) + fileSize(`${paths.db}-wal`) + fileSize(`${paths.db}-shm`);
  return {
    root: paths.root,
    sources,
    entries: { total: scan.entries.length, byKind, humanEdited, unreadable: scan.foreign.length },
    links: { total, broken: brokenLinks.length, brokenLinks },
    lastCompile: num(store.getMeta('last_compile')),
    compileInterrupted: store.getMeta('compile_pending') === '1',
    lastHeal,
    healBranches: branches === null ? null : branches.filter((b) => !b.merged).map((b) => b.name),
    store: {
      path: paths.db,
      bytes: storeBytes,
      documents: counts.documents,
      chunks: counts.chunks,
      vectors: counts.vectors,
    },
    spend: readSpend(paths),
  };
}
