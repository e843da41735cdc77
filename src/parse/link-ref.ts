/** One `[[target#heading|shown]]` in a document. */
export interface WikiLinkRef {
  /** What the link names: a file name or path without `.md`, without `#heading`. */
  target: string;
  heading?: string;
  alias?: string;
  line: number;
  column: number;
  /** `![[…]]`: an embed (remark-wiki-link does not parse these; found separately). */
  embed: boolean;
}

export function splitTarget(raw: string): { target: string; heading?: string } {
  const hash = raw.indexOf('#');
  const target = (hash >= 0 ? raw.slice(0, hash) : raw).trim().replace(/\.md$/i, '');
  const heading = hash >= 0 ? raw.slice(hash + 1).trim() : undefined;
  return heading ? { target, heading } : { target };
}
