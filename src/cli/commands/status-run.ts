import { shownPath } from './init-run.js';
import { closeKb, openKb } from '../../kb/context.js';
import { findKbRoot } from '../../kb/paths.js';
import { formatUsd } from '../../model/price.js';
import { computeStatus, type KbStatus } from '../../status/status.js';
import { paint, type Io } from '../io.js';
import type { CliRuntime } from '../runtime.js';
import type { StatusFlags } from '../flags.js';

export async function runStatus(flags: StatusFlags, rt: CliRuntime): Promise<number> {
  const ctx = openKb(findKbRoot(flags.kb), { readOnly: true });
  try {
    const status = computeStatus(ctx);
    if (flags.json) rt.io.out(JSON.stringify(status, null, 2));
    else printStatus(rt.io, status, Boolean(flags.verbose));
    return 0;
  } finally {
    closeKb(ctx);
  }
}

function when(unix: number | null): string {
  if (unix === null) return 'never';
  const d = new Date(unix * 1000);
  const ago = Math.max(0, Math.round((Date.now() - d.getTime()) / 1000));
  const rel =
    ago < 90
      ? `${ago} s ago`
      : ago < 5400
        ? `${Math.round(ago / 60)} min ago`
        : ago < 172800
          ? `${Math.round(ago / 3600)} h ago`
          : `${Math.round(ago / 86400)} days ago`;
  return `${d.toISOString().replace('T', ' ').slice(0, 16)} UTC (${rel})`;
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The human view of `kb status` (the core returns data; this prints it). */
export function printStatus(io: Io, s: KbStatus, verbose: boolean): void {
  const src = s.sources;
  const list = (items: string[], color: 'yellow' | 'red' | 'dim') => {
    const shown = verbose ? items : items.slice(0, 5);
    for (const i of shown) io.out(paint(io, color, `    ${i}`));
    if (shown.length < items.length)
      io.out(paint(io, 'dim', `    … and ${items.length - shown.length} more (--verbose lists them all)`));
  };
  io.out(paint(io, 'bold', `Knowledge base ${shownPath(s.root)}`));
  io.out(
    `  sources   ${src.total} in raw/: ${src.compiled} compiled, ${src.pending} pending, ${src.stale} stale, ${src.failed} failed${src.removed ? `, ${src.removed} removed` : ''}`,
  );
  if (src.pending)
    list(
      src.pendingPaths.map((p) => `pending  raw/${p}`),
      'yellow',
    );
  if (src.stale)
    list(
      src.stalePaths.map((p) => `stale    raw/${p}`),
      'yellow',
    );
  if (src.failed)
    list(
      src.failedPaths.map((f) => `failed   raw/${f.path}: ${f.reason}`),
      'red',
    );
  if (src.removed)
    list(
      src.removedPaths.map((p) => `removed  raw/${p}`),
      'dim',
    );
  const k = s.entries.byKind;
  io.out(
    `  entries   ${s.entries.total}: ${k['source'] ?? 0} sources, ${k['concept'] ?? 0} concepts, ${k['answer'] ?? 0} answers${s.entries.humanEdited ? `; ${s.entries.humanEdited} edited by you` : ''}${s.entries.unreadable ? `; ${s.entries.unreadable} unreadable` : ''}`,
  );
  io.out(`  links     ${s.links.total}, ${s.links.broken} broken`);
  if (s.links.broken)
    list(
      s.links.brokenLinks.map((b) => `wiki/${b.file}:${b.line}:${b.column}  [[${b.target}]]`),
      'red',
    );
  io.out(
    `  compiled  ${when(s.lastCompile)}${s.compileInterrupted ? paint(io, 'yellow', '; the last compile was interrupted (the next one finishes it)') : ''}`,
  );
  const branches =
    s.healBranches === null
      ? ' (not a git repository)'
      : s.healBranches.length
        ? `; ${s.healBranches.length} heal branch${s.healBranches.length === 1 ? '' : 'es'} waiting for review`
        : '';
  io.out(`  healed    ${when(s.lastHeal)}${branches}`);
  if (s.healBranches?.length) list(s.healBranches, 'dim');
  io.out(
    `  store     ${bytes(s.store.bytes)} (${s.store.documents} documents, ${s.store.chunks} chunks, ${s.store.vectors} vectors)`,
  );
  const u = s.spend.usage;
  io.out(
    `  spend     ${formatUsd(s.spend.usd)} in ${s.spend.calls} model call${s.spend.calls === 1 ? '' : 's'} (${u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens} tokens in, ${u.output_tokens} out; ${s.spend.cachedReplies} cached replies)`,
  );
  if (s.spend.byModel.length > 1 || s.spend.byModel[0]?.model.includes('/')) {
    for (const m of s.spend.byModel)
      io.out(
        `            ${m.model}: ${formatUsd(m.usd)} in ${m.calls} call${m.calls === 1 ? '' : 's'} (${m.inputTokens} tokens in, ${m.outputTokens} out)`,
      );
  }
  if (src.pending + src.stale + src.removed > 0)
    io.out(paint(io, 'dim', '  run `kb compile` (or leave `kb watch` running) to bring the wiki up to date'));
  if (s.healBranches?.length) {
    io.out(
      paint(
        io,
        'dim',
        '  review a heal branch with `git log -p HEAD..heal/<name>` and take it with `git merge heal/<name>`,',
      ),
    );
    io.out(paint(io, 'dim', '  or have heal redo its fixes and merge the clean ones: `kb lint --heal --merge`'));
  }
}
