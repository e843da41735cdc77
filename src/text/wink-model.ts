import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * wink-eng-lite-web-model, loaded faster. The package's own loader requires its 3 MB core model as
 * JSON when it is first required, copies it through JSON.stringify and JSON.parse when wink asks for
 * it, and decodes its two base64 tables one character at a time: 400 ms or so of every process that
 * tags English (a one-change compile, each compile worker), ~100–150 ms of it spared here. The core
 * model is parsed once and its tables decoded by Buffer; the other parts (sentence breaking, tags,
 * the automata wink sets up) are the package's own modules. wink-model.test.ts checks that the core
 * model is the same as the package's.
 */
const require = createRequire(import.meta.url);
const PACKAGE = 'wink-eng-lite-web-model/dist';

interface CoreModel {
  packing: { layout: Record<string, number[]>; efList?: string[] };
  features: Record<string, { list: unknown[]; hash?: Record<string, number>; [k: string]: unknown }> & {
    posClusters: { list: unknown[] };
  };
  pos: { hash: Record<string, number> };
  lexicon: unknown;
  xpansions: unknown;
  [k: string]: unknown;
}

/** A base64 table as 32-bit words, on a buffer of its own (a Uint32Array needs an aligned start). */
function words(base64: string): Uint32Array {
  const bytes = Buffer.from(base64, 'base64');
  const own = new Uint8Array(bytes.length);
  own.set(bytes);
  return new Uint32Array(own.buffer);
}

/** The core model as wink's read-core-model.js and load-core-model.js make it. */
export function readCoreModel(): CoreModel {
  const file = require.resolve(`${PACKAGE}/languages/cur/models/eng-core-web-model.json`);
  const model = JSON.parse(readFileSync(file, 'utf8')) as CoreModel;
  const { packing, features, pos } = model;
  model.lexicon = words(model.lexicon as string);
  model.xpansions = words(model.xpansions as string);
  for (const f in packing.layout) {
    if (packing.layout[f]![3] !== 0) continue;
    const feature = features[f]!;
    feature.hash = Object.create(null) as Record<string, number>;
    for (let k = 0; k < feature.list.length; k++) feature.hash[feature.list[k] as string] = k;
  }
  const lexeme = features.lexeme!;
  lexeme.hash = Object.create(null) as Record<string, number>;
  for (let k = 0; k < lexeme.list.length; k++) lexeme.hash[lexeme.list[k] as string] = k;
  const clusters = features.posClusters.list;
  for (let k = 0; k < clusters.length; k++)
    clusters[k] = new Set((clusters[k] as string).split('_').map((e) => pos.hash[e] || 0));
  // load-core-model.js: the sizes wink's cache grows from.
  packing.efList = [];
  for (const f in packing.layout) {
    const layout = packing.layout[f]!;
    if (layout[3] === 0) {
      const feature = features[f]!;
      feature.intrinsicSize = feature.list.length;
      feature.index = feature.list.length;
      feature.maxIndex = layout[1]! >>> layout[2]!;
    }
    if (layout[4] === 1) packing.efList.push(f);
  }
  lexeme.intrinsicSize = lexeme.list.length;
  lexeme.index = lexeme.list.length;
  return model;
}

/** The model object wink-nlp takes, as the package's model.js builds it, with the core model read here. */
export function englishModel(core: () => CoreModel = readCoreModel): Record<string, unknown> {
  // Each model part loaded once: the package's loader of the custom-entity model turns its machines
  // into JSON on every call (a second wink instance would get them stringified twice).
  const part = (name: string) => require(`${PACKAGE}/${name}.js`) as unknown;
  const once = (name: string) => {
    const load = part(name) as () => unknown;
    let made: unknown;
    return () => (made ??= load());
  };
  const model = Object.create(null) as Record<string, unknown>;
  model.core = core;
  model.sbd = once('load-sbd-model');
  model.pos = once('load-pos-model');
  model.ner = once('load-ner-model');
  model.negation = once('load-negation-model');
  model.sa = once('load-sa-model');
  model.metaCER = once('load-cer-meta-model');
  model.featureFn = part('feature');
  const addons = Object.create(null) as Record<string, unknown>;
  addons.stem = part('porter-stemmer');
  addons.lemmatize = part('lemmatize');
  addons.readabilityStats = part('readability-stats');
  addons.wordVectors = undefined;
  model.addons = addons;
  return model;
}

/**
 * Words a wink instance may learn before it is made again (forgotten words still fill its lists):
 * ~10 MB of lists, made again in a few milliseconds every few hundred documents.
 */
const MAX_LEARNED = 100_000;

/**
 * A learned word whose place in wink's cache changes no reading: a run of Latin letters is one
 * token whether wink knows it or not, and its features are its own. A word holding anything else
 * ("package's", "co-op", "U.S", "3D") is split one way when known and another when not.
 */
const PLAIN_WORD = /^[A-Za-z]+$/;

/**
 * wink-nlp that reads every text as a process that has read nothing else would. wink learns the
 * words of a text that its lexicon lacks, with their features, and its tokenizer keeps a word it
 * has learned whole where it would split it otherwise: after "a package's, b" (learned whole),
 * "the package's" is one word tagged as a name, not "package" and "'s". The names found in a
 * document would hang on what its process read before: the thread a compile gave it, a full
 * compile against a one-change one. So before each text (`fresh`) the learned words but plain
 * ones (PLAIN_WORD) are forgotten; the instance is made again on the model as loaded after
 * `maxLearned` words, or before a feature's values outgrow the bits wink packs them in.
 */
export function freshEnglish<W>(make: (model: Record<string, unknown>) => W, maxLearned = MAX_LEARNED): () => W {
  const core = readCoreModel();
  const model = englishModel(() => core);
  const lexeme = core.features.lexeme!;
  // The feature values wink adds to (getFeaturesIndex in wink-nlp's cache.js): the lexemes and
  // the listed features it extracts from a new word.
  const listed = (core.packing.efList ?? [])
    .filter((f) => core.packing.layout[f]![3] === 0)
    .map((f) => core.features[f]!);
  let nlp = make(model);
  // As wink set them up (it adds nothing while it does, but what it would add is then kept).
  const loaded = new Map([lexeme, ...listed].map((f) => [f, f.list.length]));
  const full = () =>
    lexeme.list.length - loaded.get(lexeme)! > maxLearned || listed.some((f) => f.list.length > (f.maxIndex as number));
  let from = lexeme.list.length;
  return () => {
    if (full()) {
      for (const [f, size] of loaded) {
        for (let i = size; i < f.list.length; i++) delete f.hash![f.list[i] as string];
        f.list.length = size;
        f.index = size;
      }
      nlp = make(model);
      from = lexeme.list.length;
      return nlp;
    }
    // Forgotten, not dropped: the lexemes' places in wink's own table of learned words stay theirs.
    for (let i = from; i < lexeme.list.length; i++) {
      const w = lexeme.list[i] as string;
      if (!PLAIN_WORD.test(w) && lexeme.hash![w] === i) delete lexeme.hash![w];
    }
    from = lexeme.list.length;
    return nlp;
  };
}
