import type { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { defineCompile } from './compile.js';
import { defineAsk } from './ask.js';
import { defineSearch } from './search.js';
import { defineContext } from './context.js';
import { defineInit } from './init.js';
import { defineLint } from './lint.js';
import { defineMcp } from './mcp.js';
import { defineStatus } from './status.js';
import { defineWatch } from './watch.js';
import { defineDoctor } from './doctor.js';
import { defineExport, defineServe } from './serve.js';

/** Every command's definition (options and help). Implementations load lazily in their actions. */
export const COMMANDS: ((program: Command, rt: CliRuntime) => void)[] = [
  defineCompile,
  defineAsk,
  defineSearch,
  defineContext,
  defineInit,
  defineLint,
  defineStatus,
  defineWatch,
  defineMcp,
  defineDoctor,
  defineServe,
  defineExport,
];
