import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bodyHash, parseEntryFile, stringifyEntryKeepingBody } from '../../entry/frontmatter.js';
import { readOffers } from '../../emit/offers.js';
import type { KbPaths } from '../../kb/paths.js';
import type { Finding } from '../../lint/types.js';
import type { EntryFrontmatter } from '../../types.js';
import { writeFileAtomic } from '../../util/atomic.js';
import type { FixLog } from './structural.js';

/**
 * kb's side of each edit conflict, written into the entry on the heal branch: the person's lines
 * everywhere else, kb's where both changed the same ones. Only where the entry on the branch is still
 * the text the offer was made against; the frontmatter stays as it is (the entry stays the person's).
 */
export function takeOffers(wt: KbPaths, findings: Finding[], offersDir: string, log: FixLog): void {
  const offers = new Map(readOffers(offersDir).map((o) => [o.id, o]));
  for (const f of findings) {
    const offer = offers.get(String(f.data?.['id'] ?? ''));
    if (!offer) continue;
    const file = join(wt.wiki, offer.path);
    let parsed: ReturnType<typeof parseEntryFile>;
    try {
      parsed = parseEntryFile(readFileSync(file, 'utf8'));
    } catch (err) {
      log.cannot.push({ file: f.file, why: `the entry cannot be read (${(err as Error).message})` });
      continue;
    }
    if (bodyHash(parsed.body) !== offer.mineHash) {
      log.cannot.push({ file: f.file, why: 'the entry changed since compile made the offer; compile again' });
      continue;
    }
    writeFileAtomic(file, stringifyEntryKeepingBody(parsed.data as EntryFrontmatter, offer.body));
    const places = `${offer.conflicts} place${offer.conflicts === 1 ? '' : 's'}`;
    log.changes.push(
      `${f.file}: kb's update where you and kb changed the same lines (${places}); your other lines kept`,
    );
  }
}
