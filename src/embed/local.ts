/**
 * The built-in embedder: no download, no network, deterministic, fast. It is feature hashing
 * (the "hashing trick"), a bag of words with some structure, not a neural model: texts that share
 * vocabulary end up close, synonyms do not.
 *
 * Features, each hashed with a sign into `dims` buckets, weighted by type and by sublinear TF
 * (1 + ln tf), then L2-normalised:
 * - English (and other alphabetic scripts): lowercased words with a simple plural stripped,
 *   word bigrams, and character trigrams of longer words (so "embedding" is near "embedded");
 *   stopwords are down-weighted and left out of bigrams.
 * - Chinese: ICU dictionary words (Intl.Segmenter via src/text/segment.ts), Han character bigrams,
 *   and single characters at a low weight; function words/characters are down-weighted.
 *
 * Texts are folded first as the full-text index folds them (src/text/fold.ts: Traditional to
 * Simplified, NFKC), so both scripts of the same words get the same vector.
 *
 * An empty text (or one with no word at all) gets the unit vector along dimension 0 rather than a
 * zero vector, so cosine distance is always defined; all such texts are identical to each other.
 */
import { ConfigError } from '../diagnostics/errors.js';
import { foldText } from '../text/fold.js';
import { words } from '../text/segment.js';
import { type Embedder, l2normalize } from './types.js';
import * as EN from '../text/lang/en.js';
import * as ZH from '../text/lang/zh.js';

export const LOCAL_MIN_DIMS = 64;
export const LOCAL_MAX_DIMS = 4096;

// Feature types live in the low 3 bits of a feature's key; their weights:
const UNIGRAM = 0;
const UNIGRAM_STOP = 1;
const BIGRAM = 2;
const TRIGRAM = 3;
const ZH_WORD = 4;
const ZH_STOP = 5;
const HAN_BIGRAM = 6;
const HAN_CHAR = 7;
const TYPE_WEIGHT = new Float64Array([1, 0.1, 0.6, 0.25, 1, 0.1, 0.5, 0.2]);

/** Single Han characters that carry no topic: low weight alone, left out of character bigrams. */
const ZH_STOPCHARS = new Set([...ZH.FUNCTION_CHARS].map((c) => c.charCodeAt(0)));

// Character classes of BMP code units, filled lazily.
const OTHER = 1;
const WORD = 2;
const HAN = 3;
const charClass = new Uint8Array(65536);
const LETTER = /^[\p{L}\p{N}\p{M}]$/u;

function classOf(code: number): number {
  const known = charClass[code] ?? 0;
  if (known) return known;
  let c = OTHER;
  if ((code >= 0x3400 && code <= 0x4dbf) || (code >= 0x4e00 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff))
    c = HAN;
  else if (code >= 0xd800 && code <= 0xdfff) c = OTHER;
  else if (LETTER.test(String.fromCharCode(code))) c = WORD;
  charClass[code] = c;
  return c;
}
// ASCII letters and digits are words; warm the table.
for (let c = 0; c < 128; c++) classOf(c);

/** Longest string given to Intl.Segmenter at once. */
const SEGMENT_WINDOW = 2000;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over UTF-16 code units of `s[start, end)`, continuing from `h`. */
function fnv(s: string, start: number, end: number, h = FNV_OFFSET): number {
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** murmur3's 32-bit finaliser: spreads every input bit over the output. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Length of `w` (lowercase) without a simple English plural; `y` to append for "-ies". */
function stemEnd(s: string, start: number, end: number): { end: number; y: boolean } {
  const len = end - start;
  if (len < 4 || s.charCodeAt(end - 1) !== 115 /* s */) return { end, y: false };
  const c2 = s.charCodeAt(end - 2);
  if (len >= 5 && c2 === 101 /* e */ && s.charCodeAt(end - 3) === 105 /* i */) return { end: end - 3, y: true };
  if (c2 === 115 /* s */ || c2 === 117 /* u */ || c2 === 105 /* i */) return { end, y: false };
  if (len >= 5 && c2 === 101) {
    const c3 = s.charCodeAt(end - 3);
    // boxes, indexes, searches, wishes, quizzes
    if (
      c3 === 120 ||
      c3 === 122 ||
      ((c3 === 104 || c3 === 115) && (s.charCodeAt(end - 4) === 99 || s.charCodeAt(end - 4) === 115))
    )
      return { end: end - 2, y: false };
  }
  return { end: end - 1, y: false };
}

/** Feature counts of one text: open addressing over int32 keys (a Map would box most 32-bit keys). */
class FeatureCounts {
  keys = new Int32Array(4096);
  counts = new Int32Array(4096);
  slots = new Int32Array(2048);
  size = 0;

  add(key: number): void {
    const mask = this.keys.length - 1;
    let i = (key >>> 3) & mask;
    for (;;) {
      const k = this.keys[i] ?? 0;
      if (k === key) {
        this.counts[i] = (this.counts[i] ?? 0) + 1;
        return;
      }
      if (k === 0) break;
      i = (i + 1) & mask;
    }
    this.keys[i] = key;
    this.counts[i] = 1;
    this.slots[this.size++] = i;
    if (this.size * 2 >= this.keys.length) this.grow();
  }

  clear(): void {
    for (let j = 0; j < this.size; j++) this.keys[this.slots[j] ?? 0] = 0;
    this.size = 0;
  }

  private grow(): void {
    const { keys, counts, size, slots } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.counts = new Int32Array(keys.length * 2);
    this.slots = new Int32Array(keys.length);
    this.size = 0;
    for (let j = 0; j < size; j++) {
      const at = slots[j] ?? 0;
      const key = keys[at] ?? 0;
      const n = counts[at] ?? 0;
      this.add(key);
      this.counts[this.slots[this.size - 1] ?? 0] = n;
    }
  }
}

export class LocalEmbedder implements Embedder {
  readonly dims: number;
  readonly fingerprint: string;
  /** Term frequencies of the text being embedded, by feature key (reused between texts). */
  private readonly tf = new FeatureCounts();

  constructor(dims = 384) {
    if (!Number.isInteger(dims) || dims < LOCAL_MIN_DIMS || dims > LOCAL_MAX_DIMS) {
      throw new ConfigError(
        `Unexpected embedding.dims ${dims} for the local embedder, expected an integer from ${LOCAL_MIN_DIMS} to ${LOCAL_MAX_DIMS}`,
      );
    }
    this.dims = dims;
    // v2: texts are folded (Traditional → Simplified, NFKC) before hashing.
    this.fingerprint = `local:hash-v2:${dims}`;
  }

  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i++) {
      if (signal?.aborted && i % 64 === 0) return Promise.reject(signal.reason);
      out.push(this.embedOne(texts[i] ?? ''));
    }
    return Promise.resolve(out);
  }

  /** The vector of one text (synchronous; `embed` is the interface). */
  embedOne(text: string): Float32Array {
    const tf = this.tf;
    tf.clear();
    this.collect(foldText(text).toLowerCase(), tf);
    const v = new Float32Array(this.dims);
    for (let j = 0; j < tf.size; j++) {
      const at = tf.slots[j] ?? 0;
      const key = tf.keys[at] ?? 0;
      const count = tf.counts[at] ?? 1;
      const w = (TYPE_WEIGHT[key & 7] ?? 0) * (1 + Math.log(count));
      const h = fmix(key);
      const idx = (h >>> 1) % this.dims;
      v[idx] = (v[idx] ?? 0) + (h & 1 ? -w : w);
    }
    return l2normalize(v);
  }

  private collect(s: string, tf: FeatureCounts): void {
    const add = (h: number, type: number): void => {
      // Never 0, the empty slot.
      tf.add((h & ~7) | type || 8);
    };
    const n = s.length;
    const hanRuns: string[] = [];
    let prevWord = 0; // hash of the previous non-stopword English word, 0 = none
    let i = 0;
    while (i < n) {
      const cls = classOf(s.charCodeAt(i));
      if (cls === OTHER) {
        // Punctuation breaks bigrams; spaces do not.
        const c = s.charCodeAt(i);
        if (c !== 32 && c !== 10 && c !== 9 && c !== 13) prevWord = 0;
        i++;
        continue;
      }
      let j = i + 1;
      while (j < n && classOf(s.charCodeAt(j)) === cls) j++;
      if (cls === WORD) prevWord = this.englishWord(s, i, j, prevWord, add);
      else {
        this.hanRun(s, i, j, add);
        if (j - i >= 2) hanRuns.push(s.slice(i, j));
        prevWord = 0;
      }
      i = j;
    }
    // Dictionary words of the Han runs, a few runs per segmenter call: a call costs as much as
    // ~10 characters, but Intl.Segmenter slows down badly on long strings.
    let batch = '';
    for (const run of hanRuns) {
      for (let k = 0; k < run.length; k += SEGMENT_WINDOW) {
        batch += (batch ? ' ' : '') + run.slice(k, k + SEGMENT_WINDOW);
        if (batch.length >= SEGMENT_WINDOW) {
          this.hanWords(batch, add);
          batch = '';
        }
      }
    }
    if (batch) this.hanWords(batch, add);
  }

  private hanWords(text: string, add: (h: number, type: number) => void): void {
    for (const w of words(text)) {
      if (w.length < 2) continue; // single characters are counted by hanRun
      add(fnv(w, 0, w.length, 0x2545f491), ZH.FUNCTION_WORDS.has(w) ? ZH_STOP : ZH_WORD);
    }
  }

  /** Features of the word `s[start, end)`; returns the hash to pair with the next word (0 after a stopword). */
  private englishWord(
    s: string,
    start: number,
    end: number,
    prev: number,
    add: (h: number, type: number) => void,
  ): number {
    if (end - start === 1 && s.charCodeAt(start) > 57) return prev; // single letters
    const word = end - start <= 12 ? s.slice(start, end) : '';
    if (word && EN.FUNCTION_WORDS.has(word)) {
      add(fnv(s, start, end, 0x1234567), UNIGRAM_STOP);
      return 0;
    }
    const stem = stemEnd(s, start, end);
    let h = fnv(s, start, stem.end);
    if (stem.y) h = Math.imul(h ^ 121, FNV_PRIME) >>> 0;
    add(h, UNIGRAM);
    if (prev) add(fmix(Math.imul(prev, 0x9e3779b1) ^ h), BIGRAM);
    const len = stem.end - start + (stem.y ? 1 : 0);
    if (len >= 4) {
      // Character trigrams with word boundaries: ^em emb mbe … ng$
      let a = 94; // '^'
      let b = s.charCodeAt(start);
      for (let k = start + 1; k <= stem.end; k++) {
        const c = k < stem.end ? s.charCodeAt(k) : stem.y ? 121 : 36; // 'y' or '$'
        add(fmix(Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d)), TRIGRAM);
        a = b;
        b = c;
      }
      if (stem.y) add(fmix(Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(36, 0xc2b2ae3d)), TRIGRAM);
    }
    return h;
  }

  /** Character features of a run of Han characters `s[start, end)`. */
  private hanRun(s: string, start: number, end: number, add: (h: number, type: number) => void): void {
    for (let k = start; k < end; k++) {
      const c = s.charCodeAt(k);
      const stop = ZH_STOPCHARS.has(c);
      add(fmix(Math.imul(c, 0x27d4eb2f) ^ 0x5bd1e995), stop ? ZH_STOP : HAN_CHAR);
      if (k + 1 < end) {
        const d = s.charCodeAt(k + 1);
        if (!stop && !ZH_STOPCHARS.has(d))
          add(fmix(Math.imul(c, 0x9e3779b1) ^ Math.imul(d, 0x85ebca77) ^ 0x68e31da4), HAN_BIGRAM);
      }
    }
  }
}
