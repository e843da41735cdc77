import { closeKb, openKb } from '../../kb/context.js';
import { findKbRoot } from '../../kb/paths.js';
import { retrieve } from '../../ask/retrieve.js';
import { packContext } from '../../ask/pack.js';
import type { CliRuntime } from '../runtime.js';
import type { ContextFlags } from '../flags.js';
import { positiveInt, questionOf } from './ask-shared.js';

export async function runContext(words: string, flags: ContextFlags, rt: CliRuntime): Promise<number> {
  const question = questionOf(words);
  const ctx = openKb(findKbRoot(flags.kb), { readOnly: true });
  ctx.store.searchOnSecondThread();
  try {
    const budget = positiveInt('--budget', flags.budget, ctx.config.ask.budget);
    const r = await retrieve(ctx, question, { signal: rt.signal });
    const packed = packContext(ctx.store, r, { budget });
    if (flags.json) {
      rt.io.out(
        JSON.stringify(
          {
            question,
            xml: packed.xml,
            tokens: packed.tokens,
            budget,
            entries: packed.entries.map((e) => ({ id: e.id, title: e.title, passages: e.passages.length })),
          },
          null,
          2,
        ),
      );
    } else {
      if (packed.xml) rt.io.out(packed.xml);
      rt.io.err(`${packed.entries.length} entries, ${packed.tokens} of ${budget} tokens`);
    }
    return 0;
  } finally {
    closeKb(ctx);
  }
}
