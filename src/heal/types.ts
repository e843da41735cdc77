import type { LintCounts } from '../lint/lint.js';
import type { Finding } from '../lint/types.js';

export type BranchStatus =
  /** A branch was made and committed. */
  | 'created'
  /** A branch from an earlier run today already holds these findings' fix. */
  | 'exists'
  /** --dry-run: what would be done. */
  | 'planned'
  /** Nothing to change on the committed tree (or only findings heal cannot fix). */
  | 'nothing'
  /** The judge rejected the model's rewrite: nothing committed. */
  | 'rejected'
  /** A content fix without a model (no ANTHROPIC_API_KEY). */
  | 'needs-model'
  | 'failed';

export interface HealBranch {
  topic: string;
  title: string;
  status: BranchStatus;
  branch?: string;
  commit?: string;
  findings: Finding[];
  changes: string[];
  cannot: { file: string; why: string }[];
  /** Findings of the group's rules on the branch before and after the fix. */
  fixedCount?: { before: number; after: number };
  /** All findings on the branch before and after. */
  before?: LintCounts;
  after?: LintCounts;
  remaining: Finding[];
  clean: boolean;
  /** When not clean: why, in words (findings of its rules left, or a new error elsewhere). */
  uncleanWhy?: string;
  judge?: { verdict: 'accept' | 'reject'; reason: string };
  /** URLs the model used from web search (`--web`). */
  web: string[];
  merged?: boolean;
  mergeNote?: string;
  error?: string;
}

export interface HealReport {
  date: string;
  /** Findings on the person's checkout when heal started. */
  before: LintCounts;
  branches: HealBranch[];
  changelog?: string;
  nothingToDo: boolean;
  /** What was put back from an earlier run that was killed while merging. */
  recovered?: string[];
  refreshed?: boolean;
  /** Why the store could not be refreshed after merging. */
  refreshError?: string;
}
