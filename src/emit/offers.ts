import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic.js';
import { sha256 } from '../util/hash.js';

/**
 * kb's side of an edit conflict: when a person and kb changed the same lines of an entry, compile
 * keeps the person's text and leaves here the text with kb's lines in those places (the person's
 * everywhere else), for `kb lint --heal` to offer on a branch. One JSON file per entry in
 * `.kb/offers/`, readable by a person; it stands only while the entry's body is the one it was
 * made against (`mineHash`).
 */
export interface EntryOffer {
  id: string;
  /** The entry's path, relative to wiki/. */
  path: string;
  /** bodyHash of the person's text the offer was made against. */
  mineHash: string;
  conflicts: number;
  body: string;
}

export function offersDir(state: string): string {
  return join(state, 'offers');
}

function fileOf(dir: string, id: string): string {
  return join(dir, `${sha256(id).slice(0, 24)}.json`);
}

export function writeOffer(dir: string, offer: EntryOffer): void {
  mkdirSync(dir, { recursive: true });
  writeFileAtomic(fileOf(dir, offer.id), `${JSON.stringify(offer, null, 2)}\n`);
}

export function removeOffer(dir: string, id: string): void {
  rmSync(fileOf(dir, id), { force: true });
}

/** Every offer that reads as one; a damaged file is no offer (the next compile makes it again). */
export function readOffers(dir: string): EntryOffer[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const out: EntryOffer[] = [];
  for (const n of names.sort()) {
    try {
      const o = JSON.parse(readFileSync(join(dir, n), 'utf8')) as Partial<EntryOffer>;
      if (
        typeof o.id === 'string' &&
        typeof o.path === 'string' &&
        typeof o.mineHash === 'string' &&
        typeof o.conflicts === 'number' &&
        typeof o.body === 'string'
      )
        out.push(o as EntryOffer);
    } catch {
      // not an offer
    }
  }
  return out;
}
