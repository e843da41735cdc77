import type { LintRule } from '../types.js';
import { brokenLink } from './broken-link.js';
import { contradiction } from './contradiction.js';
import { deadUrl } from './dead-url.js';
import { deletedSource } from './deleted-source.js';
import { duplicateEntry } from './duplicate-entry.js';
import { editConflict } from './edit-conflict.js';
import { humanEdited } from './human-edited.js';
import { missingBacklink } from './missing-backlink.js';
import { missingCitation } from './missing-citation.js';
import { missingSummary } from './missing-summary.js';
import { orphanEntry } from './orphan-entry.js';
import { schema } from './schema.js';
import { staleEntry } from './stale-entry.js';
import { uncompiledSource } from './uncompiled-source.js';

/** Every rule, in the order findings are reported. */
export const RULES: readonly LintRule[] = [
  schema,
  brokenLink,
  missingBacklink,
  orphanEntry,
  missingSummary,
  uncompiledSource,
  deletedSource,
  staleEntry,
  humanEdited,
  editConflict,
  duplicateEntry,
  contradiction,
  missingCitation,
  deadUrl,
];

export function ruleById(id: string): LintRule | undefined {
  return RULES.find((r) => r.id === id);
}
