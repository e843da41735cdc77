import { closeKb, openKb } from '../../kb/context.js';
import { findKbRoot } from '../../kb/paths.js';
import { NotSavedError, UsageError } from '../../diagnostics/errors.js';
import { ask } from '../../ask/ask.js';
import { answerProblems, answerTitle, saveAnswer } from '../../ask/save.js';
import { marpBody, MARP_FRONTMATTER } from '../../ask/marp.js';
import { loadModelClient } from '../../model/load.js';
import { noModelReason } from '../../model/provider.js';
import { paint } from '../io.js';
import type { CliRuntime } from '../runtime.js';
import type { AskFlags } from '../flags.js';
import { positiveInt, questionOf } from './ask-shared.js';

export async function runAsk(words: string, flags: AskFlags, rt: CliRuntime): Promise<number> {
  const question = questionOf(words);
  const format = flags.format ?? 'markdown';
  if (format !== 'markdown' && format !== 'marp')
    throw new UsageError(`Unexpected --format \`${format}\`, expected markdown or marp`);
  const ctx = openKb(findKbRoot(flags.kb), { readOnly: !flags.save && format !== 'marp' });
  ctx.store.searchOnSecondThread();
  try {
    const budget = positiveInt('--budget', flags.budget, ctx.config.ask.budget);
    const model = flags.offline ? undefined : await loadModelClient(ctx);
    if (!model && !flags.offline && !flags.json) {
      rt.io.err(
        paint(
          rt.io,
          'dim',
          `${noModelReason(ctx.config, ctx.env) ?? 'No model'}: extractive answer from the wiki (no model).`,
        ),
      );
    }
    const res = await ask(ctx, question, { budget, model, cache: flags.cache !== false, signal: rt.signal });
    let saved: Awaited<ReturnType<typeof saveAnswer>> | undefined;
    let notSaved: NotSavedError | undefined;
    if (flags.save || format === 'marp') {
      const by = res.mode === 'model' ? `model:${res.model ?? 'unknown'}` : 'offline';
      const problems = answerProblems(res, { requireCitations: true });
      if (problems.length) notSaved = new NotSavedError(`Not filed: ${problems.join('; ')}.`);
      else
        try {
          saved = await saveAnswer(
            ctx,
            format === 'marp'
              ? {
                  question,
                  answer: res.answer,
                  citations: res.citations,
                  by,
                  format,
                  extraFrontmatter: { ...MARP_FRONTMATTER },
                  body: marpBody(answerTitle(question), res.answer, res.citations),
                }
              : { question, answer: res.answer, citations: res.citations, by },
            { signal: rt.signal },
          );
        } catch (err) {
          if (!(err instanceof NotSavedError)) throw err;
          notSaved = err;
        }
    }
    if (flags.json) {
      const { packed: _p, retrieval: _r, ...out } = res;
      rt.io.out(
        JSON.stringify(
          { ...out, ...(saved ? { saved } : {}), ...(notSaved ? { notSaved: notSaved.message } : {}) },
          null,
          2,
        ),
      );
      if (notSaved) throw notSaved;
      return flags.strict && res.warnings?.length ? 1 : 0;
    }
    for (const w of res.warnings ?? []) rt.io.err(paint(rt.io, 'yellow', `warning: ${w}`));
    rt.io.out(res.answer);
    const cites = res.citations.map((c) => c.title).join(', ');
    const line = `${res.mode === 'model' ? res.model : 'offline'}; ${res.context.tokens} context tokens from ${res.context.entries} entries${res.cached ? '; cached' : ''}${cites ? `; cites ${cites}` : ''}`;
    rt.io.err(paint(rt.io, 'dim', line));
    if (saved) {
      const what = saved.replaced
        ? `Updated wiki/${saved.path}: version ${saved.replaced.version + 1} replaces version ${saved.replaced.version} (${saved.replaced.by})`
        : `Filed wiki/${saved.path}`;
      rt.io.err(
        `${what}${saved.backlinked.length ? ` (backlinks in ${saved.backlinked.length} entr${saved.backlinked.length === 1 ? 'y' : 'ies'})` : ''}`,
      );
    }
    if (notSaved) throw notSaved;
    return flags.strict && res.warnings?.length ? 1 : 0;
  } finally {
    closeKb(ctx);
  }
}
