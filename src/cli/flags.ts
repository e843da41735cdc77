/** The flags of each command, as commander hands them to its `run…` function. */

export interface AskFlags {
  kb?: string;
  budget?: string;
  offline?: boolean;
  save?: boolean;
  format?: string;
  cache?: boolean;
  json?: boolean;
  strict?: boolean;
}

export interface CompileFlags {
  kb?: string;
  force?: boolean;
  offline?: boolean;
  estimate?: boolean;
  maxCost?: string;
  batch?: boolean;
  strict?: boolean;
  json?: boolean;
  verbose?: boolean;
}

export interface ContextFlags {
  kb?: string;
  budget?: string;
  json?: boolean;
}

export interface DoctorFlags {
  kb?: string;
  json?: boolean;
}

export interface InitFlags {
  git?: boolean;
  json?: boolean;
}

export interface LintFlags {
  kb?: string;
  rule?: string[];
  json?: boolean;
  frail?: boolean;
  network?: boolean;
  offline?: boolean;
  heal?: boolean;
  merge?: boolean;
  dryRun?: boolean;
  web?: boolean;
  listRules?: boolean;
}

/** `--rule a --rule b,c` → ['a', 'b', 'c']. */
export function ruleList(flags: LintFlags): string[] {
  return (flags.rule ?? [])
    .flatMap((r) => r.split(','))
    .map((r) => r.trim())
    .filter(Boolean);
}

export interface McpFlags {
  kb?: string;
  offline?: boolean;
}

export interface SearchFlags {
  kb?: string;
  limit?: string;
  passages?: string;
  json?: boolean;
}

export interface StatusFlags {
  kb?: string;
  json?: boolean;
  verbose?: boolean;
}

export interface WatchFlags {
  kb?: string;
  debounce?: string;
  lockWait?: string;
  initial?: boolean;
  poll?: boolean;
  offline?: boolean;
  json?: boolean;
  verbose?: boolean;
}

export interface ServeFlags {
  kb?: string;
  port?: string;
  host?: string;
  token?: string;
  open?: boolean;
  offline?: boolean;
}

export interface ExportFlags {
  kb?: string;
  html: string;
  json?: boolean;
}
