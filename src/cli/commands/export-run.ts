import { closeKb, openKb } from '../../kb/context.js';
import { findKbRoot } from '../../kb/paths.js';
import { exportSite } from '../../serve/export.js';
import type { CliRuntime } from '../runtime.js';
import type { ExportFlags } from '../flags.js';

/** `kb export --html DIR`: the static site, then one line saying where. */
export async function runExport(flags: ExportFlags, rt: CliRuntime): Promise<number> {
  const ctx = openKb(findKbRoot(flags.kb), { readOnly: true });
  try {
    const r = await exportSite(ctx, flags.html, { signal: rt.signal });
    if (flags.json) rt.io.out(JSON.stringify(r, null, 2));
    else
      rt.io.out(`Wrote ${r.pages} pages, search.html, graph.html and llms.txt to ${r.dir} (open ${r.dir}/index.html).`);
    return 0;
  } finally {
    closeKb(ctx);
  }
}
