import type { EntryOffer } from '../emit/offers.js';
import type { KbConfig } from '../config/defaults.js';
import type { KbMessage } from '../diagnostics/message.js';
import type { Embedder } from '../embed/types.js';
import type { LoadedEntry, WikiScan } from '../entry/wiki.js';
import type { KbPaths } from '../kb/paths.js';
import type { ModelClient } from '../model/client.js';
import type { Store } from '../store/store.js';
import type { Severity } from '../types.js';
import type { Point } from '../diagnostics/message.js';

/** A raw file as lint sees it: path under raw/ and the sha256 of its bytes now. */
export interface RawState {
  path: string;
  absPath: string;
  hash: string;
}

/** What every rule reads: the wiki as it is on disk, raw/ with hashes, and optional helpers. */
export interface LintInput {
  paths: KbPaths;
  config: KbConfig;
  entries: LoadedEntry[];
  foreign: WikiScan['foreign'];
  /** Every file in the vault, relative to wiki/. */
  files: string[];
  raw: RawState[];
  /** Raw paths the store says ingest skipped (empty, binary…) at their current hash: no entry expected. */
  skippedRaw: Set<string>;
  /** kb's sides of edit conflicts compile left in `.kb/offers/` (emit/offers.ts). */
  offers: EntryOffer[];
  /** Raw paths the store recorded as empty although ingest finds text in them now. */
  emptiedRaw?: Set<string>;
  store?: Store | undefined;
  embedder?: Embedder | undefined;
  /** With a model, `contradiction` asks it about the most similar pairs. */
  model?: ModelClient | undefined;
  /** `dead-url` runs only when true. */
  network: boolean;
  fetch?: typeof fetch;
  signal?: AbortSignal | undefined;
}

/** What heal needs to act on a finding (paths are relative to the knowledge base root). */
export interface FindingData {
  /** The entry (wiki/…) or raw file the finding is about. */
  path?: string;
  /** The other entry, for rules about pairs. */
  other?: string;
  target?: string;
  rawPath?: string;
  [key: string]: unknown;
}

/** A lint finding: a KbMessage plus the data heal needs to fix it. */
export interface Finding extends KbMessage {
  data?: FindingData;
}

/** What a rule reports; the runner adds ruleId, severity, source and url. */
export interface FindingDraft {
  file: string;
  place?: Point | undefined;
  reason: string;
  expected?: string;
  note?: string;
  data?: FindingData;
}

/**
 * `structural`: heal fixes it deterministically (links, backlinks, frontmatter, compile).
 * `content`: heal asks the model to rewrite, and a separate judging call checks the rewrite.
 */
export type Fixable = 'structural' | 'content' | false;

export interface LintRule {
  id: string;
  severity: Severity;
  fixable: Fixable;
  /** What the rule checks and why, in a few sentences. */
  docs: string;
  /**
   * A passing and a failing knowledge base (file path → content); the examples are the rule's
   * tests. `expect` lists `file[:line:column]` of each finding on the failing one.
   */
  examples: { pass: Record<string, string>; fail: Record<string, string>; expect: string[] };
  /** Only runs with `--network`. */
  network?: boolean;
  check(input: LintInput): FindingDraft[] | Promise<FindingDraft[]>;
}
