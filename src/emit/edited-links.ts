import { message, type KbMessage } from '../diagnostics/message.js';
import { withoutBacklinks } from '../entry/backlinks.js';
import { linkKey } from '../entry/names.js';
import type { WikiScan } from '../entry/wiki.js';
import { extractWikiLinks } from '../parse/links.js';
import type { Finals } from './types.js';

/**
 * Links a person wrote in an entry they edited that named an entry this run removed or renamed:
 * compile leaves their text alone, so it says so once (lint keeps reporting them).
 */
export function linksBrokenInEdited(scan: WikiScan, finals: Finals, attachmentRaw: readonly string[]): KbMessage[] {
  const keys = (p: string) => {
    const noExt = p.replace(/\.md$/i, '');
    return [linkKey(noExt), linkKey(noExt.split('/').pop() ?? noExt)];
  };
  const before = new Set(scan.files.flatMap(keys));
  const entryFiles = new Set<string>(scan.entries.map((e) => e.path));
  const after = new Set(
    [
      ...[...finals.values()].map((f) => f.path),
      ...scan.files.filter((p) => !entryFiles.has(p) && !p.startsWith('attachments/')),
      ...attachmentRaw.map((p) => `attachments/${p.split('/').pop()}`),
    ].flatMap(keys),
  );
  const out: KbMessage[] = [];
  for (const f of finals.values()) {
    if (!f.humanEdited) continue;
    const gone = new Set<string>();
    for (const l of extractWikiLinks(withoutBacklinks(f.body))) {
      const k = linkKey(l.target);
      if (k && before.has(k) && !after.has(k)) gone.add(l.target);
    }
    if (!gone.size) continue;
    const list = [...gone].map((t) => `[[${t}]]`).join(', ');
    const reason = `Unexpected link${gone.size === 1 ? '' : 's'} to ${list}, which this compile removed or renamed, expected links to entries in the wiki; your text is left as you wrote it`;
    out.push(
      message(`wiki/${f.path}`, 'broken-link', reason, {
        severity: 'warning',
        note: 'edit the link yourself, or run `kb lint --heal` to have it fixed on a branch',
      }),
    );
  }
  return out;
}
