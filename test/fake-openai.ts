/**
 * A scripted fake of an OpenAI-compatible server (Chat Completions, embeddings, models) on
 * 127.0.0.1 (port 0), for tests that run the real `openai` SDK. Handlers are those of
 * fake-anthropic.ts: each chat request is shown to them in Messages API shape (system, one user
 * message), so the same fake "Claude" answers both protocols; replies become chat completions.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendBody, type FakeHandler, type FakeReply, type FakeRequest } from './fake-anthropic.js';

export interface FakeOpenAI {
  /** Base URL as OPENAI_BASE_URL takes it (…/v1). */
  url: string;
  requests: FakeRequest[];
  /** POST /v1/chat/completions requests, as sent (OpenAI shape). */
  chats(): FakeRequest[];
  close(): Promise<void>;
}

export interface FakeOpenAIOptions {
  /** Models GET /v1/models lists; a chat for another one gets a 404 like Ollama's "model not found". */
  models?: string[];
  /** Answer to POST /v1/embeddings: a vector per input. */
  embed?: (input: string[]) => number[][];
}

const FINISH: Record<string, string> = { end_turn: 'stop', max_tokens: 'length', stop_sequence: 'stop' };

export function completionBody(
  text: string,
  stopReason = 'end_turn',
  usage: FakeReply['usage'] = {},
  model = 'fake-model',
): unknown {
  const u = { input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 0, ...usage };
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2, 10)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      { index: 0, message: { role: 'assistant', content: text }, finish_reason: FINISH[stopReason] ?? stopReason },
    ],
    usage: {
      prompt_tokens: u.input_tokens + u.cache_read_input_tokens,
      completion_tokens: u.output_tokens,
      total_tokens: u.input_tokens + u.cache_read_input_tokens + u.output_tokens,
      prompt_tokens_details: { cached_tokens: u.cache_read_input_tokens },
    },
  };
}

function errorBody(status: number, message = `fake ${status}`): unknown {
  const type =
    status === 429
      ? 'rate_limit_exceeded'
      : status >= 500
        ? 'server_error'
        : status === 401
          ? 'invalid_api_key'
          : 'invalid_request_error';
  return { error: { message, type, code: type } };
}

/** A chat request as the Messages API handlers of fake-anthropic.ts read it. */
function asMessages(fr: FakeRequest): FakeRequest {
  const msgs: { role: string; content: string }[] = fr.body?.messages ?? [];
  const system = msgs.filter((m) => m.role === 'system').map((m) => ({ type: 'text', text: m.content }));
  const user = msgs.filter((m) => m.role === 'user').map((m) => ({ role: 'user', content: m.content }));
  return {
    ...fr,
    path: '/v1/messages',
    body: {
      model: fr.body?.model,
      max_tokens: fr.body?.max_tokens ?? fr.body?.max_completion_tokens,
      system,
      messages: user,
    },
  };
}

export async function startFakeOpenAI(handler: FakeHandler, opts: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const requests: FakeRequest[] = [];
  let n = 0;

  async function reply(req: FakeRequest): Promise<FakeReply> {
    const i = n++;
    if (Array.isArray(handler))
      return (
        handler.shift() ?? {
          status: 500,
          body: errorBody(500, 'fake: script exhausted'),
          headers: { 'x-should-retry': 'false' },
        }
      );
    return handler(req, i);
  }

  function send(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
    cut = false,
  ): void {
    sendBody(res, status, body, headers, cut);
  }

  async function route(fr: FakeRequest, res: ServerResponse): Promise<void> {
    if (fr.method === 'GET' && fr.path === '/v1/models') {
      send(res, 200, {
        object: 'list',
        data: (opts.models ?? []).map((id) => ({ id, object: 'model', owned_by: 'fake' })),
      });
      return;
    }
    if (fr.method === 'POST' && fr.path === '/v1/embeddings' && opts.embed) {
      const input: string[] = Array.isArray(fr.body?.input) ? fr.body.input : [fr.body?.input];
      send(res, 200, {
        object: 'list',
        model: fr.body?.model,
        data: opts.embed(input).map((embedding, index) => ({ object: 'embedding', index, embedding })),
      });
      return;
    }
    if (fr.method === 'POST' && fr.path === '/v1/chat/completions') {
      if (opts.models && !opts.models.includes(fr.body?.model)) {
        send(res, 404, {
          error: { message: `model "${fr.body?.model}" not found, try pulling it first`, type: 'api_error' },
        });
        return;
      }
      const r = await reply(asMessages(fr));
      if (r.delayMs) await new Promise((ok) => setTimeout(ok, r.delayMs));
      if (res.destroyed) return;
      const status = r.status ?? 200;
      const out =
        r.body ??
        (status === 200 ? completionBody(r.text ?? '', r.stopReason, r.usage, fr.body?.model) : errorBody(status));
      send(res, status, out, r.headers, r.cutBody);
      return;
    }
    send(res, 404, errorBody(404, `fake: no route ${fr.method} ${fr.path}`));
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      const fr: FakeRequest = {
        method: req.method ?? 'GET',
        path: (req.url ?? '/').split('?')[0]!,
        headers: req.headers,
        body,
      };
      requests.push(fr);
      route(fr, res).catch((err: unknown) =>
        send(res, 500, errorBody(500, String(err)), { 'x-should-retry': 'false' }),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    requests,
    chats: () => requests.filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions'),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
