import { adoptKb } from '../init/init.js';
import { findCompileRoot } from '../kb/paths.js';
import { shownPath } from './commands/init-run.js';
import type { CliRuntime } from './runtime.js';

/**
 * The knowledge base `kb compile` and `kb watch` write to. A folder holding raw/ and no
 * kb.config.json (nor any folder above it) becomes one: its kb.config.json is written, and said so
 * in one line. `write: false` (`--estimate`) takes the folder as it is and writes nothing.
 */
export function rootToCompile(explicit: string | undefined, rt: CliRuntime, opts: { write: boolean }): string {
  const { root, adopt } = findCompileRoot(explicit);
  if (adopt && opts.write) {
    const file = adoptKb(root);
    const shown = shownPath(root);
    rt.io.err(
      `No kb.config.json ${shown === '.' ? 'here' : `in ${shown}`} or above: made ${shown === '.' ? 'this folder' : shown} a knowledge base (wrote ${shownPath(file)} with the defaults, as \`kb init\` does).`,
    );
  }
  return root;
}
