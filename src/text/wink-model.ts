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
export function englishModel(): Record<string, unknown> {
  const part = (name: string) => require(`${PACKAGE}/${name}.js`) as unknown;
  const model = Object.create(null) as Record<string, unknown>;
  model.core = readCoreModel;
  model.sbd = part('load-sbd-model');
  model.pos = part('load-pos-model');
  model.ner = part('load-ner-model');
  model.negation = part('load-negation-model');
  model.sa = part('load-sa-model');
  model.metaCER = part('load-cer-meta-model');
  model.featureFn = part('feature');
  const addons = Object.create(null) as Record<string, unknown>;
  addons.stem = part('porter-stemmer');
  addons.lemmatize = part('lemmatize');
  addons.readabilityStats = part('readability-stats');
  addons.wordVectors = undefined;
  model.addons = addons;
  return model;
}
