/**
 * Each SDK kb calls a model through, against its fake server on 127.0.0.1: the real
 * `@anthropic-ai/sdk` against fake-anthropic.ts, the real `openai` SDK against fake-openai.ts.
 * One handler answers both (fake-openai.ts shows it each chat in Messages API shape); the calls
 * are recorded as each SDK sent them, and systemPrompt / userContent read either shape.
 */
import { startFakeAnthropic, type FakeHandler, type FakeRequest } from './fake-anthropic.js';
import { startFakeOpenAI } from './fake-openai.js';

export type Sdk = 'anthropic' | 'openai';

/** For `describe.each(SDKS)`. */
export const SDKS: Sdk[] = ['anthropic', 'openai'];

export interface FakeSdk {
  /** The environment that points kb at the fake. */
  env: Record<string, string>;
  /** The model calls received, in order, as the SDK sent them. */
  calls(): FakeRequest[];
  /** The user content of each call. */
  prompts(): string[];
  close(): Promise<void>;
}

export async function startFakeSdk(sdk: Sdk, handler: FakeHandler): Promise<FakeSdk> {
  if (sdk === 'anthropic') {
    const f = await startFakeAnthropic(handler);
    return {
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: f.url },
      calls: () => f.messages(),
      prompts: () => f.messages().map(userContent),
      close: () => f.close(),
    };
  }
  const f = await startFakeOpenAI(handler);
  return {
    env: { KB_PROVIDER: 'openai', OPENAI_BASE_URL: f.url, OPENAI_API_KEY: 'sk-test' },
    calls: () => f.chats(),
    prompts: () => f.chats().map(userContent),
    close: () => f.close(),
  };
}

type Message = { role: string; content: unknown };
const text = (c: unknown): string => (typeof c === 'string' ? c : (JSON.stringify(c) ?? ''));

/** A recorded call's system prompt: the Messages API's system blocks, or the chat's system messages, joined. */
export function systemPrompt(req: FakeRequest): string {
  const messages: Message[] = req.body?.messages ?? [];
  if (req.path.endsWith('/chat/completions'))
    return messages
      .filter((m) => m.role === 'system')
      .map((m) => text(m.content))
      .join('\n\n');
  const system: unknown = req.body?.system;
  if (!Array.isArray(system)) return typeof system === 'string' ? system : '';
  return system.map((b: { text?: string }) => b.text ?? '').join('\n\n');
}

/** A recorded call's first user message, in either shape. */
export function userContent(req: FakeRequest): string {
  const messages: Message[] = req.body?.messages ?? [];
  return text(messages.find((m) => m.role === 'user')?.content);
}
