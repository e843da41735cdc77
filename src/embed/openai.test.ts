import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbedError, OpenAIEmbedder } from './index.js';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  auth: string | undefined;
  body: { model: string; input: string[] };
}

type Reply = (req: Seen, res: ServerResponse, n: number) => void;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => {
      const closed = new Promise((resolve) => s.close(resolve));
      s.closeAllConnections();
      return closed;
    }),
  );
});

/** A real HTTP server on 127.0.0.1 that records requests and answers with `reply`. */
async function serve(reply: Reply): Promise<{ baseURL: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (raw += d));
    req.on('end', () => {
      const s: Seen = {
        method: req.method,
        url: req.url,
        auth: req.headers.authorization,
        body: JSON.parse(raw || '{}') as Seen['body'],
      };
      seen.push(s);
      reply(s, res, seen.length);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseURL: `http://127.0.0.1:${port}/v1`, seen };
}

/** A vector per input: [len, index+1, 1, 0…], so order and content can be checked. */
function vectorsFor(input: string[], dims: number): { index: number; embedding: number[] }[] {
  return input.map((text, index) => {
    const e = new Array<number>(dims).fill(0);
    e[0] = text.length;
    e[1] = Number(text.replace(/\D/g, '') || 0) + 1;
    e[2] = 1;
    return { index, embedding: e };
  });
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const ok: Reply = (req, res) =>
  json(res, 200, { object: 'list', data: vectorsFor(req.body.input, 4), model: req.body.model });

describe('OpenAIEmbedder', () => {
  it('posts batches to {baseURL}/embeddings with the model and returns unit vectors in order', async () => {
    const { baseURL, seen } = await serve(ok);
    const e = new OpenAIEmbedder({ baseURL: `${baseURL}/`, model: 'nomic-embed-text', dims: 4, batchSize: 2 });
    const texts = ['t0', 't1', 't2', 't3', 't4'];
    const vs = await e.embed(texts);
    expect(seen.map((s) => [s.method, s.url, s.body.model, s.body.input])).toEqual([
      ['POST', '/v1/embeddings', 'nomic-embed-text', ['t0', 't1']],
      ['POST', '/v1/embeddings', 'nomic-embed-text', ['t2', 't3']],
      ['POST', '/v1/embeddings', 'nomic-embed-text', ['t4']],
    ]);
    expect(seen[0]?.auth).toBeUndefined();
    expect(vs).toHaveLength(5);
    vs.forEach((v, i) => {
      expect(v).toBeInstanceOf(Float32Array);
      const n = Math.hypot(...v);
      expect(n).toBeCloseTo(1, 5);
      // [2, i + 1, 1, 0] normalised
      expect((v[1] ?? 0) / (v[2] ?? 1)).toBeCloseTo(i + 1, 4);
    });
    expect(e.fingerprint).toBe(`openai:${baseURL}:nomic-embed-text:4`);
    expect(await e.embed([])).toEqual([]);
  });

  it('does not send blank texts, which get the unit vector along dimension 0', async () => {
    const { baseURL, seen } = await serve(ok);
    const e = new OpenAIEmbedder({ baseURL, model: 'm', dims: 4, batchSize: 2 });
    const vs = await e.embed(['', 'a1', '  ', 'a2', 'a3']);
    expect(seen.map((s) => s.body.input)).toEqual([['a1', 'a2'], ['a3']]);
    expect(vs.map((v) => [...v].map((x) => Math.round(x * 100) / 100))).toEqual([
      [1, 0, 0, 0],
      [0.67, 0.67, 0.33, 0],
      [1, 0, 0, 0],
      [0.53, 0.8, 0.27, 0],
      [0.44, 0.87, 0.22, 0],
    ]);
  });

  it('orders vectors by index when the server answers out of order', async () => {
    const { baseURL } = await serve((req, res) => json(res, 200, { data: vectorsFor(req.body.input, 4).reverse() }));
    const e = new OpenAIEmbedder({ baseURL, model: 'm', dims: 4, batchSize: 10 });
    const vs = await e.embed(['a0', 'a1', 'a2']);
    expect(vs.map((v) => Math.round((v[1] ?? 0) / (v[2] ?? 1)))).toEqual([1, 2, 3]);
  });

  it('sends the API key as a bearer token', async () => {
    const { baseURL, seen } = await serve(ok);
    await new OpenAIEmbedder({ baseURL, model: 'm', apiKey: 'sk-secret-123', dims: 4, batchSize: 8 }).embed(['x']);
    expect(seen[0]?.auth).toBe('Bearer sk-secret-123');
  });

  it('retries a 429 after what retry-after says, then succeeds', async () => {
    const { baseURL, seen } = await serve((req, res, n) => {
      if (n === 1) json(res, 429, { error: { message: 'rate limited' } }, { 'retry-after': '0' });
      else ok(req, res, n);
    });
    const e = new OpenAIEmbedder({ baseURL, model: 'm', dims: 4, batchSize: 8 });
    const vs = await e.embed(['x']);
    expect(vs).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });

  it('retries a reply cut off before its end (full Content-Length, half the body), then says so in one line', async () => {
    const cut: Reply = (req, res) => {
      const body = Buffer.from(JSON.stringify({ object: 'list', data: vectorsFor(req.body.input, 4) }));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.write(body.subarray(0, body.length >> 1), () => res.destroy());
    };
    const once = await serve((req, res, n) => (n === 1 ? cut(req, res, n) : ok(req, res, n)));
    const e = new OpenAIEmbedder({ baseURL: once.baseURL, model: 'm', dims: 4, batchSize: 8 });
    expect(await e.embed(['x'])).toHaveLength(1);
    expect(once.seen).toHaveLength(2);

    const always = await serve(cut);
    const err = await new OpenAIEmbedder({ baseURL: always.baseURL, model: 'm', dims: 4, batchSize: 8, retries: 1 })
      .embed(['x'])
      .catch((x: unknown) => x);
    expect(err).toBeInstanceOf(EmbedError);
    expect((err as Error).message).toMatch(
      /failed after 2 attempts: reply cut off before its end \(other side closed\)/,
    );
    expect(always.seen).toHaveLength(2);
  });

  it('retries 5xx and network errors', async () => {
    const { baseURL, seen } = await serve((req, res, n) => {
      if (n === 1) json(res, 500, { error: 'boom' }, { 'retry-after': '0' });
      else if (n === 2) res.socket?.destroy();
      else if (n === 3) json(res, 503, {}, { 'retry-after': '0' });
      else ok(req, res, n);
    });
    const e = new OpenAIEmbedder({ baseURL, model: 'm', dims: 4, batchSize: 8 });
    expect(await e.embed(['x'])).toHaveLength(1);
    expect(seen).toHaveLength(4);
  });

  it('gives up after its retries with an error naming the URL and status, never the key', async () => {
    const { baseURL, seen } = await serve((_req, res) =>
      json(res, 502, { error: { message: 'bad gateway for key sk-secret-123' } }, { 'retry-after': '0' }),
    );
    const e = new OpenAIEmbedder({ baseURL, model: 'm', apiKey: 'sk-secret-123', dims: 4, batchSize: 8, retries: 4 });
    const err = await e.embed(['x']).catch((error: unknown) => error);
    expect(err).toBeInstanceOf(EmbedError);
    const m = (err as EmbedError).message;
    expect(m).toContain(`${baseURL}/embeddings`);
    expect(m).toContain('HTTP 502');
    expect(m).toContain('5 attempts');
    expect(m).not.toContain('sk-secret-123');
    expect((err as EmbedError).status).toBe(502);
    expect(seen).toHaveLength(5);
  });

  it('does not retry other 4xx answers and hints at the fix', async () => {
    const { baseURL, seen } = await serve((_req, res) =>
      json(res, 401, { error: { message: 'Invalid API key: sk-secret-123' } }),
    );
    const e = new OpenAIEmbedder({ baseURL, model: 'm', apiKey: 'sk-secret-123', dims: 4, batchSize: 8 });
    const err = (await e.embed(['x']).catch((error: unknown) => error)) as EmbedError;
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/HTTP 401: .*Invalid API key: \*\*\*/);
    expect(err.message).toContain('apiKeyEnv');
    expect(err.message).not.toContain('sk-secret-123');
    expect(seen).toHaveLength(1);
  });

  it('says the configured dims are wrong when the server returns vectors of another size', async () => {
    const { baseURL } = await serve((req, res) => json(res, 200, { data: vectorsFor(req.body.input, 768) }));
    const e = new OpenAIEmbedder({ baseURL, model: 'nomic-embed-text', dims: 1024, batchSize: 8 });
    const err = (await e.embed(['x']).catch((error: unknown) => error)) as EmbedError;
    expect(err).toBeInstanceOf(EmbedError);
    expect(err.message).toContain('returned vectors of 768 numbers');
    expect(err.message).toContain('embedding.dims is 1024');
    expect(err.message).toContain('"dims": 768');
  });

  it('times out a request that gets no answer and retries it', async () => {
    const { baseURL, seen } = await serve((req, res, n) => {
      if (n === 1) return; // never answers
      ok(req, res, n);
    });
    const e = new OpenAIEmbedder({ baseURL, model: 'm', dims: 4, batchSize: 8, timeoutMs: 300 });
    expect(await e.embed(['x'])).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });

  it('reports a server that cannot be reached', async () => {
    const { baseURL } = await serve(ok);
    await new Promise((resolve) => servers.pop()?.close(resolve));
    const e = new OpenAIEmbedder({ baseURL, model: 'm', dims: 4, batchSize: 8, retries: 1 });
    await expect(e.embed(['x'])).rejects.toThrow(/failed after 2 attempts: network error \(Connection error/);
  });

  it('stops waiting when the caller aborts', async () => {
    const { baseURL } = await serve((_req, res) => json(res, 503, {}, { 'retry-after': '30' }));
    const e = new OpenAIEmbedder({ baseURL, model: 'm', dims: 4, batchSize: 8 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('interrupted')), 100);
    await expect(e.embed(['x'], controller.signal)).rejects.toThrow('interrupted');
  });

  it('rejects answers that are not embeddings', async () => {
    const { baseURL } = await serve((_req, res, n) =>
      n === 1 ? json(res, 200, { data: [] }) : json(res, 200, { data: [{ index: 0, embedding: [1, 'x', 0, 0] }] }),
    );
    const e = new OpenAIEmbedder({ baseURL, model: 'm', dims: 4, batchSize: 8 });
    await expect(e.embed(['x'])).rejects.toThrow(/0 embeddings, expected 1/);
    await expect(e.embed(['x'])).rejects.toThrow(/expected a number/);
  });

  it('keeps user:password of the URL out of the fingerprint and messages', () => {
    const e = new OpenAIEmbedder({ baseURL: 'https://user:pw@example.com/v1', model: 'm', dims: 4, batchSize: 8 });
    expect(e.fingerprint).toBe('openai:https://example.com/v1:m:4');
    expect(() => new OpenAIEmbedder({ baseURL: 'ftp://x', model: 'm', dims: 4, batchSize: 1 })).toThrow(
      /expected an http/,
    );
  });
});
