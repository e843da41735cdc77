import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { message, type KbMessage } from '../diagnostics/message.js';
import { bodyHash } from '../entry/frontmatter.js';
import type { WikiScan } from '../entry/wiki.js';

/** The id line of a frontmatter block, read without parsing the YAML (which is what broke). */
const ID_LINE = /^id:[ \t]*['"]?([a-z]+\/[^'"\s]+)['"]?[ \t]*$/m;

/**
 * Entries kb wrote whose frontmatter no longer parses (a garbled block, a half-written file): the
 * body is the one kb wrote (its hash is the store's content_hash for the id the block still names),
 * so nothing of a person's is in it. Each is removed, so that this compile writes it again whole,
 * and said. A file whose body a person changed, or that names no entry kb knows, stays as it is
 * (`kb lint` reports it). Returns the scan without those files, and what was done.
 */
export function dropDamagedEntries(
  wikiDir: string,
  scan: WikiScan,
  stored: (id: string) => { content_hash: string } | undefined,
): { scan: WikiScan; messages: KbMessage[] } {
  const messages: KbMessage[] = [];
  const dropped = new Set<string>();
  for (const f of scan.foreign) {
    let text: string;
    try {
      text = readFileSync(join(wikiDir, f.path), 'utf8');
    } catch {
      continue;
    }
    const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
    const id = m ? ID_LINE.exec(m[1]!)?.[1] : undefined;
    const row = id ? stored(id) : undefined;
    if (!m || !row || bodyHash(text.slice(m[0].length).replace(/^\n+/, '')) !== row.content_hash) continue;
    rmSync(join(wikiDir, f.path), { force: true });
    dropped.add(f.path);
    messages.push(
      message(
        `wiki/${f.path}`,
        'damaged-entry',
        `Unexpected ${f.reason} in an entry kb wrote, expected frontmatter that parses; written again`,
        {
          severity: 'warning',
        },
      ),
    );
  }
  if (!dropped.size) return { scan, messages };
  return {
    scan: {
      ...scan,
      foreign: scan.foreign.filter((f) => !dropped.has(f.path)),
      files: scan.files.filter((p) => !dropped.has(p)),
    },
    messages,
  };
}
