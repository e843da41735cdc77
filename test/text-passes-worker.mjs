// Runs the text passes of a compile on one input in a worker thread, so that a test can stop a pass
// that hangs (a synchronous regex cannot be interrupted from the thread that runs it).
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { prepare } = await import('../src/compile/prepare.ts');
const { LocalEmbedder } = await import('../src/embed/index.ts');
const { autolink, buildNameTable, resolveLinks } = await import('../src/emit/linker.ts');

const cfg = { ingest: { maxFileBytes: 10 * 1024 * 1024, ignore: [] }, chunk: { maxTokens: 400, overlapTokens: 50 } };
const embedder = new LocalEmbedder(64);
const table = buildNameTable([
  { name: 'Vector Database', file: 'Vector Database', id: 'concept/vector-database' },
  { name: 'xx', file: 'XX', id: 'concept/xx' },
  { name: '检索增强', file: '检索增强', id: 'concept/zh' },
]);

parentPort.on('message', async ({ name, line }) => {
  const results = [];
  for (const ext of ['md', 'txt', 'html', 'py']) {
    const path = `${name}.${ext}`;
    const text = ext === 'html' ? `<html><body><p>${line}</p></body></html>` : line;
    const bytes = Buffer.from(text);
    const p = await prepare(
      { path, absPath: `/nowhere/${path}`, size: bytes.length, mtimeMs: 0 },
      bytes,
      'h',
      cfg,
      embedder,
    );
    // One long line is one work (a multi-post file would give several parts).
    const part = p.parts?.[0];
    results.push({
      path,
      rules: p.messages.map((m) => m.ruleId),
      title: part?.doc.title,
      summary: part?.offline.summary,
      chunks: part?.chunks.length,
      vectors: part?.vectors?.length,
    });
  }
  const linked = autolink(line, table, 'self').length;
  const resolved = resolveLinks(line, () => undefined).text.length;
  parentPort.postMessage({ results, linked, resolved });
});
