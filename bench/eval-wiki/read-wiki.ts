// A compiled wiki as the judge reads it: index.json for every entry, each concept's aliases from its frontmatter.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseEntryFile } from '../../src/entry/frontmatter.js';
import type { WikiPage } from './judge.js';

const VERSIONS = /^## Versions\n([\s\S]*?)(?=^## |^<!--|(?![\s\S]))/m;

interface IndexRow {
  id: string;
  title: string;
  kind: string;
  path: string;
  summary?: string;
  source_ref?: string[];
  links?: string[];
}

export function readWiki(wikiDir: string): WikiPage[] {
  const rows = JSON.parse(readFileSync(join(wikiDir, 'index.json'), 'utf8')) as IndexRow[];
  const idOfFile = new Map(rows.map((r) => [basename(r.path, '.md'), r.id]));
  return rows.map((r) => {
    const file = join(wikiDir, r.path);
    let aliases: string[] = [];
    if (r.kind === 'concept' && existsSync(file)) {
      const fm = parseEntryFile(readFileSync(file, 'utf8')).data as { aliases?: unknown };
      if (Array.isArray(fm.aliases)) aliases = fm.aliases.map(String);
    }
    // A source entry's list of its work's other versions: the `## Versions` section.
    const section =
      r.kind === 'source' && existsSync(file) ? VERSIONS.exec(readFileSync(file, 'utf8'))?.[1] : undefined;
    const versions = [...(section ?? '').matchAll(/\[\[([^\]|#]+)/g)].flatMap((m) => idOfFile.get(m[1]!.trim()) ?? []);
    return {
      ...(versions.length ? { versions } : {}),
      id: r.id,
      kind: r.kind,
      title: r.title,
      aliases,
      summary: r.summary ?? '',
      sourceRef: r.source_ref ?? [],
      links: r.links ?? [],
    };
  });
}
