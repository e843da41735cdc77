import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';

/** A 200 whose body is not a chat completion (a proxy's page, a half-implemented server). */
export class MalformedReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedReplyError';
  }
}

/** What went wrong with a call, whichever SDK made it. */
export interface ApiFailure {
  /** HTTP status; undefined when no answer came (connection refused, timeout). */
  status: number | undefined;
  timeout: boolean;
  /** The server's own words, for diagnosis (the SDKs never put keys in them). */
  detail: string;
  /**
   * `code` of the error body (`model_not_found`), the connection error's cause (`ECONNREFUSED`),
   * `malformed` for a 200 whose body is not a reply, `cut` for a body cut off before its end.
   */
  code: string | undefined;
}

/**
 * A reply whose body stopped before its end (the server closed the connection after the headers:
 * a Content-Length for all of it and half the bytes). fetch (undici) reads a body outside the SDKs'
 * retries and rejects with `TypeError: terminated`, its cause the socket's error.
 */
export function isCutReply(err: unknown): err is TypeError {
  if (!(err instanceof TypeError)) return false;
  const cause = (err as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  return err.message === 'terminated' || code.startsWith('UND_ERR_') || code === 'ECONNRESET';
}

function cutDetail(err: TypeError): string {
  const cause = (err as { cause?: { message?: unknown } }).cause;
  return typeof cause?.message === 'string' && cause.message ? cause.message : err.message;
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Anthropic.APIUserAbortError || err instanceof OpenAI.APIUserAbortError;
}

/** The failure of an API call, or undefined when `err` did not come from an SDK. */
export function apiFailure(err: unknown): ApiFailure | undefined {
  if (err instanceof MalformedReplyError || err instanceof SyntaxError) {
    return { status: undefined, timeout: false, detail: `malformed reply: ${err.message}`, code: 'malformed' };
  }
  if (isCutReply(err)) return { status: undefined, timeout: false, detail: cutDetail(err), code: 'cut' };
  const isApi = err instanceof Anthropic.APIError || err instanceof OpenAI.APIError;
  if (!isApi || isAbortError(err)) return undefined;
  const e = err as Error & { status?: number; code?: unknown; cause?: unknown };
  const timeout = err instanceof Anthropic.APIConnectionTimeoutError || err instanceof OpenAI.APIConnectionTimeoutError;
  const cause = e.cause as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = typeof e.code === 'string' ? e.code : String(cause?.code ?? cause?.cause?.code ?? '') || undefined;
  return { status: e.status, timeout, detail: e.message, code };
}

/** A status worth trying again later (the SDK already retried it). */
export function isTransient(f: ApiFailure): boolean {
  const s = f.status;
  return s === undefined || s === 408 || s === 409 || s === 429 || s >= 500;
}

/**
 * `p`, or a rejection as soon as `signal` aborts. The SDKs sleep between retries without looking
 * at the signal (a 429 may ask for a minute); Ctrl-C must not wait for that.
 */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
