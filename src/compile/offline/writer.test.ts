import { describe, expect, it } from 'vitest';
import { offlineSource } from './writer.js';
import type { ContentHash, RawDocument, RawPath } from '../../types.js';

const image = (text: string): RawDocument => ({
  path: 'images/rag-pipeline.png' as RawPath,
  absPath: '/x/raw/images/rag-pipeline.png',
  type: 'attachment',
  hash: 'h' as ContentHash,
  size: 1900,
  title: 'rag-pipeline.png',
  markdown: `Image rag-pipeline.png\n\n## Text in the image\n\n${text}\n`,
  meta: { ocr: { engine: 'test' } },
  mime: 'image/png',
  lang: 'en',
});

describe('offlineSource: an image with text', () => {
  it('says what a diagram of labels shows instead of running the labels together', () => {
    const { summary } = offlineSource(image('RAG PIPELINE\n\nDOCS CHUNK EMBED INDEX\n\nQUERY FUSE LLM ANSWER'));
    expect(summary).toBe(
      'Image `rag-pipeline.png` whose text reads “RAG PIPELINE · DOCS CHUNK EMBED INDEX · QUERY FUSE LLM ANSWER”.',
    );
  });

  it('summarises an image that holds sentences from its sentences', () => {
    const { summary } = offlineSource(
      image('Questions are answered from the compiled wiki. Each answer cites the source entries it used.'),
    );
    expect(summary).toMatch(/^Questions are answered from the compiled wiki\./);
  });
});
