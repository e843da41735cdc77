export { CHUNKER_VERSION, chunkMarkdown, type ChunkOptions } from './chunk.js';
