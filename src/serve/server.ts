import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { KbContext } from '../kb/context.js';
import { KbError, UsageError } from '../diagnostics/errors.js';
import { createRoutes } from './routes.js';

export interface ServeOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  /** Required for a host other than loopback; then every request must carry it. */
  token?: string | undefined;
  offline: boolean;
}

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Largest request body (a question, or an answer's id). */
const MAX_BODY = 64 * 1024;

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'";

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new UsageError('request body too large');
    chunks.push(c as Buffer);
  }
  if (!size) return {};
  const v = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': type,
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(body);
}

/**
 * Who may call: with a token, a request carries it (`?token=` once, which sets a cookie, or
 * `Authorization: Bearer`); without one (loopback), the Host must be the server's own (no DNS
 * rebinding). A POST must come from the server's own pages (Origin) as JSON.
 */
function refusal(req: IncomingMessage, url: URL, opts: ServeOptions, port: () => number): string | undefined {
  if (opts.token) {
    const given =
      url.searchParams.get('token') ??
      cookie(req, 'kb_token') ??
      /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!given || !sameText(given, opts.token)) return 'a token is required (open the URL kb serve printed)';
  } else {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (!isLoopback(host) || !(req.headers.host ?? '').endsWith(`:${port()}`)) return 'unexpected Host header';
  }
  if (req.method === 'POST') {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return 'expected a JSON body';
    const origin = req.headers.origin;
    if (origin && origin !== `http://${req.headers.host}`) return 'unexpected Origin';
  }
  return undefined;
}

export async function startServer(ctx: KbContext, opts: ServeOptions): Promise<RunningServer> {
  if (!isLoopback(opts.host) && !opts.token)
    throw new UsageError(
      `Unexpected --host ${opts.host} without --token, expected a token for any host but loopback: \`kb serve --host ${opts.host} --token <secret>\``,
    );
  const routes = createRoutes(ctx, { offline: opts.offline });
  let port = 0;
  const server = createServer((req, res) => {
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://kb.local');
      const refused = refusal(req, url, opts, () => port);
      if (refused)
        return send(res, refused.startsWith('a token') ? 401 : 403, 'text/plain; charset=utf-8', `kb: ${refused}\n`);
      if (opts.token && url.searchParams.has('token')) {
        url.searchParams.delete('token');
        return send(res, 303, 'text/plain; charset=utf-8', '', {
          location: url.pathname + url.search,
          'set-cookie': `kb_token=${encodeURIComponent(opts.token)}; HttpOnly; SameSite=Strict; Path=/`,
        });
      }
      const body = req.method === 'POST' ? await readBody(req) : {};
      const r = await routes(req.method ?? 'GET', url, body, abort.signal);
      send(res, r.status, r.type, r.body);
    })().catch((err: unknown) => {
      const status = err instanceof KbError || err instanceof SyntaxError ? 400 : 500;
      if (!res.headersSent)
        send(res, status, 'application/json; charset=utf-8', JSON.stringify({ error: (err as Error).message }));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shown = opts.host.includes(':') && !opts.host.startsWith('[') ? `[${opts.host}]` : opts.host;
  const url = `http://${shown}:${port}/${opts.token ? `?token=${encodeURIComponent(opts.token)}` : ''}`;
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
