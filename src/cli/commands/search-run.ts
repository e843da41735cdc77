import { closeKb, openKb } from '../../kb/context.js';
import { findKbRoot } from '../../kb/paths.js';
import { retrieve, staleVectorsWarning } from '../../ask/retrieve.js';
import { paint } from '../io.js';
import type { CliRuntime } from '../runtime.js';
import type { SearchFlags } from '../flags.js';
import { positiveInt, questionOf } from './ask-shared.js';

export async function runSearch(words: string, flags: SearchFlags, rt: CliRuntime): Promise<number> {
  const query = questionOf(words);
  const limit = positiveInt('--limit', flags.limit, 10);
  const passages = positiveInt('--passages', flags.passages, 5);
  const ctx = openKb(findKbRoot(flags.kb), { readOnly: true });
  ctx.store.searchOnSecondThread();
  try {
    const stale = staleVectorsWarning(ctx.store);
    if (stale) rt.io.err(paint(rt.io, 'dim', stale));
    const r = await retrieve(ctx, query, { limit, passageLimit: passages, signal: rt.signal });
    if (flags.json) {
      rt.io.out(JSON.stringify({ query, entries: r.entries, passages: r.passages, timings: r.timings }, null, 2));
      return 0;
    }
    if (!r.entries.length) {
      rt.io.out('No matches. Try other words, or run `kb compile` if raw/ has documents the wiki does not have yet.');
      return 0;
    }
    rt.io.out(paint(rt.io, 'bold', 'Entries'));
    r.entries.forEach((e, i) => {
      const how = e.via.join('+') + (e.hopFrom ? ` from ${e.hopFrom}` : '');
      rt.io.out(
        `${String(i + 1).padStart(2)}. ${e.score.toFixed(4)}  ${e.title}  ${paint(rt.io, 'dim', `(${e.kind}, wiki/${e.path}, ${how})`)}`,
      );
      if (e.summary) rt.io.out(`      ${paint(rt.io, 'dim', clip(e.summary, 160))}`);
    });
    if (r.passages.length) {
      rt.io.out('');
      rt.io.out(paint(rt.io, 'bold', 'Passages'));
      r.passages.forEach((p, i) => {
        const where = p.rawPath ? `raw/${p.rawPath}:${p.line}` : `${p.title}:${p.line}`;
        rt.io.out(`${String(i + 1).padStart(2)}. ${p.score.toFixed(4)}  ${p.title}  ${paint(rt.io, 'dim', where)}`);
        rt.io.out(`      ${clip(p.text, 240)}`);
      });
    }
    return 0;
  } finally {
    closeKb(ctx);
  }
}

function clip(s: string, n: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  const chars = Array.from(one);
  return chars.length > n ? `${chars.slice(0, n - 1).join('')}…` : one;
}
