// The hand-written labels of one eval corpus (bench/corpora/wiki/<name>/labels.json).
import { readFileSync } from 'node:fs';

export type Lang = 'en' | 'zh' | 'zh-TW';

export interface SourceLabel {
  /** Relative to the corpus folder: `raw/…`. */
  path: string;
  lang: Lang;
  /** The work's own title, as a reader names it. */
  title: string;
  /** Shared by a document and its translations. */
  work?: string;
  /** Names of what the work is about: a right summary names one of them. */
  about: string[];
}

export interface ConceptLabel {
  id: string;
  /** One of the corpus's main ideas. */
  central: boolean;
  names: Partial<Record<Lang, string[]>>;
}

/** A page judged after reading kb's output, for pages that no labelled concept names. */
export type Judgement = 'ok' | 'noise';

export interface CorpusLabels {
  name: string;
  genre: string;
  languages: Lang[];
  sources: SourceLabel[];
  concepts: ConceptLabel[];
  /** Page title → judgement, written after reading a compiled wiki (never before labelling concepts). */
  judged?: Record<string, Judgement>;
}

export function readLabels(path: string): CorpusLabels {
  const labels = JSON.parse(readFileSync(path, 'utf8')) as CorpusLabels;
  if (!Array.isArray(labels.sources) || !Array.isArray(labels.concepts))
    throw new Error(`${path}: expected "sources" and "concepts" arrays`);
  return labels;
}
