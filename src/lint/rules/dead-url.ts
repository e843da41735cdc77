import { exampleEntry, filePoint, keyPlace, wikiFile } from '../entry-info.js';
import type { FindingDraft, LintRule } from '../types.js';

const TIMEOUT_MS = 10_000;
const CONCURRENCY = 8;

export const deadUrl: LintRule = {
  id: 'dead-url',
  severity: 'warning',
  fixable: false,
  network: true,
  docs: 'Web links in entries (the `url` field and links in the body) should still answer. Checked only with `--network`: a HEAD request (GET when HEAD is refused) that fails or answers 4xx/5xx is reported.',
  examples: {
    pass: { 'wiki/concepts/Alpha.md': exampleEntry({ title: 'Alpha' }, '# Alpha\n\nSee <{{ok}}>.\n') },
    fail: { 'wiki/concepts/Alpha.md': exampleEntry({ title: 'Alpha' }, '# Alpha\n\nSee <{{dead}}>.\n') },
    expect: ['wiki/concepts/Alpha.md:17:6'],
  },
  async check(input) {
    if (!input.network) return [];
    const uses: { url: string; file: string; place: { line: number; column: number }; path: string }[] = [];
    for (const e of input.entries) {
      if (typeof e.fm['url'] === 'string' && /^https?:\/\//.test(e.fm['url']))
        uses.push({ url: e.fm['url'], file: wikiFile(e), place: keyPlace(e, 'url'), path: wikiFile(e) });
      const lines = e.body.split('\n');
      lines.forEach((l, i) => {
        for (const m of l.matchAll(/https?:\/\/[^\s<>()[\]"'`]+/g)) {
          const url = m[0].replace(/[.,;:!?*_]+$/, '');
          uses.push({ url, file: wikiFile(e), place: filePoint(e, i + 1, (m.index ?? 0) + 1), path: wikiFile(e) });
        }
      });
    }
    const doFetch = input.fetch ?? fetch;
    const status = new Map<string, Promise<string | undefined>>();
    const queue: (() => Promise<void>)[] = [];
    for (const u of uses)
      if (!status.has(u.url)) {
        let done!: (v: string | undefined) => void;
        status.set(u.url, new Promise((res) => (done = res)));
        queue.push(async () => done(await probe(doFetch, u.url, input.signal)));
      }
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
        for (let job = queue.shift(); job; job = queue.shift()) await job();
      }),
    );
    const out: FindingDraft[] = [];
    for (const u of uses) {
      const problem = await status.get(u.url);
      if (!problem) continue;
      out.push({
        file: u.file,
        place: u.place,
        reason: `Unexpected ${problem} from <${u.url}>, expected the page to answer`,
        note: 'update the link, or point at an archived copy (https://web.archive.org/)',
        data: { path: u.path, target: u.url },
      });
    }
    return out;
  },
};

/** Undefined when the URL answers; otherwise what came instead, to follow "Unexpected" ("HTTP 404", "timeout …"). */
async function probe(doFetch: typeof fetch, url: string, signal?: AbortSignal): Promise<string | undefined> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  const sig = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    let res = await doFetch(url, { method: 'HEAD', redirect: 'follow', signal: sig });
    if (res.status === 405 || res.status === 501 || res.status === 403)
      res = await doFetch(url, { method: 'GET', redirect: 'follow', signal: sig });
    await res.body?.cancel().catch(() => undefined);
    return res.status >= 400 ? `HTTP ${res.status}` : undefined;
  } catch (err) {
    if (signal?.aborted) return undefined;
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return timeout.aborted || (err as Error).name === 'TimeoutError'
      ? `timeout (no answer within ${TIMEOUT_MS / 1000} s)`
      : `network error${cause ? ` (${cause})` : ''}`;
  }
}
