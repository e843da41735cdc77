import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files whose tests wait on timing a busy machine can stretch (watch's quiet time that makes a
 * burst of changes one compile): they run one at a time, after the rest.
 */
const SERIAL = ['test/watch.test.ts'];
/**
 * Files that take longest (half a minute to a minute each, in `--reporter=json` runs): started
 * first. Vitest orders files by their last durations when it has them and by size when it has
 * not (a clean clone), and these are short files of long tests: started last, one of them would
 * run alone on a core at the end.
 */
const SLOW_FIRST = [
  'test/long-lines.test.ts',
  'test/signals.test.ts',
  'test/compile-invariants.test.ts',
  'test/heal.test.ts',
  'test/serve.test.ts',
  'test/corrupt-store.test.ts',
  'test/estimate.test.ts',
  'test/eval-slices.test.ts',
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((s) => f.moduleId.endsWith(s));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    // A stable sort: the rest keep Vitest's order (and the groups theirs: the rank only ties within one).
    const out = (await super.sort(files)).sort(
      (a, b) =>
        (a.project.config.sequence.groupOrder ?? 0) - (b.project.config.sequence.groupOrder ?? 0) || rank(a) - rank(b),
    );
    return out;
  }
}

const shared = {
  testTimeout: 300_000,
  hookTimeout: 300_000,
  pool: 'forks' as const,
  // A worker runs its files one after another in one process: kb's modules, its bundle, SQLite
  // and the language models (jieba, wink) load once per worker, not once per file. Tests leave
  // no state behind (runKbIn restores the folder and the environment; no module is mocked);
  // `npx vitest run --isolate` runs each file in a fresh process, to rule out one leaking into
  // the next.
  isolate: false,
};

export default defineConfig({
  test: {
    // Once for the whole run, before any project: the bundle every spawned `kb` and runKbIn run.
    globalSetup: ['test/global-setup.ts'],
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        test: {
          ...shared,
          name: 'parallel',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SERIAL],
          // Vitest's default is cores − 1 workers: one on a 2-core machine, where a run of one file
          // at a time keeps about one core busy and leaves the other idle.
          maxWorkers: Math.max(2, availableParallelism() - 1),
          sequence: { groupOrder: 0 },
        },
      },
      { test: { ...shared, name: 'serial', include: SERIAL, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
