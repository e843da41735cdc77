/**
 * A scripted fake of the Anthropic Messages API on 127.0.0.1 (port 0), for tests that run the
 * real SDK. Each test passes a handler: a queue of replies, or a function of the request.
 * Also serves /v1/messages/batches (create, retrieve, results) from the same handler.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  // biome-ignore lint/suspicious/noExplicitAny: the request JSON as the SDK sent it; each test reads the fields it checks
  body: any;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** A full JSON body; when absent, one is built from text/stopReason/usage. */
  body?: unknown;
  text?: string;
  stopReason?: string;
  usage?: Partial<{
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
  }>;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
  /** Send the headers with the full Content-Length, then half the body, then close the connection. */
  cutBody?: boolean;
}

/** Write `body` as `res`'s reply, or only its first half under a Content-Length for all of it (a reply cut mid-body). */
export function sendBody(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
  cut = false,
): void {
  const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  if (!cut) {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(bytes);
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers });
  res.write(bytes.subarray(0, bytes.length >> 1), () => res.destroy());
}

/** Answers one /v1/messages request (the request body is the Messages API params). */
export type FakeHandler = FakeReply[] | ((req: FakeRequest, n: number) => FakeReply | Promise<FakeReply>);

export interface FakeBatchOptions {
  /** How many retrieve calls report `in_progress` before `ended`. Default 1. */
  pollsBeforeEnd?: number;
}

export interface FakeAnthropic {
  url: string;
  /** Every request received (all paths), in order. */
  requests: FakeRequest[];
  /** Only POST /v1/messages requests. */
  messages(): FakeRequest[];
  /** Batches created so far, by id. */
  batches: Map<
    string,
    { requests: { custom_id: string; params: { model?: string } }[]; polls: number; canceled: boolean }
  >;
  close(): Promise<void>;
}

export function messageBody(
  text: string,
  stopReason = 'end_turn',
  usage: FakeReply['usage'] = {},
  model = 'claude-test',
): unknown {
  return {
    id: `msg_${Math.random().toString(36).slice(2, 10)}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: 100,
      output_tokens: 50,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      ...usage,
    },
  };
}

function errorBody(status: number): unknown {
  const type =
    status === 429
      ? 'rate_limit_error'
      : status === 529
        ? 'overloaded_error'
        : status >= 500
          ? 'api_error'
          : 'invalid_request_error';
  return { type: 'error', error: { type, message: `fake ${status}` } };
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one HTTP handler with a branch per API route the SDK calls (messages, batches, results), sharing the recorded requests
export async function startFakeAnthropic(
  handler: FakeHandler,
  batchOpts: FakeBatchOptions = {},
): Promise<FakeAnthropic> {
  const requests: FakeRequest[] = [];
  const batches: FakeAnthropic['batches'] = new Map();
  let n = 0;
  let url = '';

  async function reply(req: FakeRequest): Promise<FakeReply> {
    const i = n++;
    if (Array.isArray(handler)) {
      const r = handler.shift();
      if (!r)
        return {
          status: 500,
          body: { type: 'error', error: { type: 'api_error', message: 'fake: script exhausted' } },
          headers: { 'x-should-retry': 'false' },
        };
      return r;
    }
    return handler(req, i);
  }

  function send(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
    cut = false,
  ): void {
    sendBody(res, status, body, { 'request-id': `req_${requests.length}`, ...headers }, cut);
  }

  function batchObject(id: string): unknown {
    const b = batches.get(id)!;
    const ended = b.polls > (batchOpts.pollsBeforeEnd ?? 1);
    const total = b.requests.length;
    return {
      id,
      type: 'message_batch',
      processing_status: ended ? 'ended' : 'in_progress',
      request_counts: {
        processing: ended ? 0 : total,
        succeeded: ended ? total : 0,
        errored: 0,
        canceled: 0,
        expired: 0,
      },
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 86400e3).toISOString(),
      ended_at: ended ? new Date().toISOString() : null,
      archived_at: null,
      cancel_initiated_at: null,
      results_url: ended ? `${url}/v1/messages/batches/${id}/results` : null,
    };
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        // biome-ignore lint/suspicious/noExplicitAny: parsed request JSON, checked field by field below
        let body: any = null;
        try {
          body = raw ? JSON.parse(raw) : null;
        } catch {
          body = raw;
        }
        const path = (req.url ?? '/').split('?')[0]!;
        const fr: FakeRequest = { method: req.method ?? 'GET', path, headers: req.headers, body };
        requests.push(fr);
        try {
          if (fr.method === 'POST' && path === '/v1/messages') {
            const r = await reply(fr);
            if (r.delayMs) await new Promise((ok) => setTimeout(ok, r.delayMs));
            if (res.destroyed) return;
            const status = r.status ?? 200;
            const out =
              r.body ??
              (status === 200 ? messageBody(r.text ?? '', r.stopReason, r.usage, body?.model) : errorBody(status));
            send(res, status, out, r.headers, r.cutBody);
            return;
          }
          if (fr.method === 'POST' && path === '/v1/messages/batches') {
            const id = `msgbatch_${batches.size + 1}`;
            batches.set(id, { requests: body.requests, polls: 0, canceled: false });
            send(res, 200, batchObject(id));
            return;
          }
          const m = /^\/v1\/messages\/batches\/([^/]+)(\/results|\/cancel)?$/.exec(path);
          if (m && batches.has(m[1]!)) {
            const id = m[1]!;
            const b = batches.get(id)!;
            if (!m[2] && fr.method === 'GET') {
              b.polls++;
              send(res, 200, batchObject(id));
              return;
            }
            if (m[2] === '/cancel') {
              b.canceled = true;
              send(res, 200, batchObject(id));
              return;
            }
            if (m[2] === '/results') {
              const lines: string[] = [];
              for (const r of b.requests) {
                const rep = await reply({ method: 'POST', path: '/v1/messages', headers: req.headers, body: r.params });
                const status = rep.status ?? 200;
                const result =
                  status === 200
                    ? {
                        type: 'succeeded',
                        message: rep.body ?? messageBody(rep.text ?? '', rep.stopReason, rep.usage, r.params?.model),
                      }
                    : { type: 'errored', error: errorBody(status) };
                lines.push(JSON.stringify({ custom_id: r.custom_id, result }));
              }
              res.writeHead(200, { 'content-type': 'application/binary' });
              res.end(`${lines.join('\n')}\n`);
              return;
            }
          }
          send(res, 404, {
            type: 'error',
            error: { type: 'not_found_error', message: `fake: no route ${fr.method} ${path}` },
          });
        } catch (err) {
          send(
            res,
            500,
            { type: 'error', error: { type: 'api_error', message: String(err) } },
            { 'x-should-retry': 'false' },
          );
        }
      })();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    messages: () => requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages'),
    batches,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** The user prompt of a Messages API request. */
export function userPrompt(req: FakeRequest): string {
  const m = req.body?.messages?.[0]?.content;
  return typeof m === 'string' ? m : JSON.stringify(m);
}
