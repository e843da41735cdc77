import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { storeOnDisk, type KbContext } from '../kb/context.js';
import { boundedText, citesSchema, contentSchema, MCP_LIMITS, titleSchema } from './limits.js';
import { askTool, contextTool, modelFor, readTool, saveTool, searchTool, statusTool } from './tools.js';

export interface McpOptions {
  /** Never call the model, even when one is configured. */
  offline?: boolean;
  version?: string;
}

const text = (s: string): CallToolResult['content'] => [{ type: 'text', text: s }];

/** Run a tool; any failure becomes a tool error the agent can read and act on, never a crash. */
async function reply(
  ctx: KbContext,
  work: () => Promise<{ text: string; structured?: Record<string, unknown> }>,
): Promise<CallToolResult> {
  try {
    storeOnDisk(ctx);
    const r = await work();
    return { content: text(r.text), ...(r.structured ? { structuredContent: r.structured } : {}) };
  } catch (err) {
    return { isError: true, content: text(`kb: ${(err as Error).message}`) };
  }
}

const RO = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const json = (o: object) => ({ text: JSON.stringify(o, null, 2), structured: o as Record<string, unknown> });

/**
 * The knowledge base as an MCP server: tools to search, ask, read an entry, get packed context,
 * save an answer or note into wiki/answers, and read the status. Read-only tools say so.
 */
export function createMcpServer(ctx: KbContext, opts: McpOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'kb', version: opts.version ?? '0.1.0' },
    {
      instructions:
        'A personal knowledge base compiled from documents into a wiki of entries (sources, concepts, answers) linked with [[wikilinks]]. ' +
        'Use `search` or `context` to find what it knows, `read` for a whole entry, `ask` for a cited answer, and `save` to file an answer or note back so it is there next time.',
    },
  );
  registerFindTools(server, ctx, opts);
  registerWorkTools(server, ctx);
  registerResources(server, ctx);
  return server;
}

/** Tools that find: search, ask and read. */
function registerFindTools(server: McpServer, ctx: KbContext, opts: McpOptions): void {
  const model = modelFor(ctx, Boolean(opts.offline));
  server.registerTool(
    'search',
    {
      title: 'Search the knowledge base',
      description:
        'Ranked entries and passages for a query (keywords and meaning, English and Chinese). No model call.',
      inputSchema: {
        query: boundedText('query', MCP_LIMITS.query).describe('what to look for'),
        limit: z.number().int().min(1).max(50).optional().describe('entries and passages to return (default 10)'),
        kind: z.enum(['source', 'concept', 'answer']).optional().describe('only entries of this kind'),
      },
      annotations: RO,
    },
    (args, extra) => reply(ctx, async () => json(await searchTool(ctx, args, extra.signal))),
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask the knowledge base',
      description:
        'A cited answer from the wiki, written by the model kb is configured with (any provider: model.provider in kb.config.json or KB_PROVIDER; answers are cached), or an extractive answer when there is none (no key, or kb mcp --offline). Does not file the answer: use `save` for that.',
      inputSchema: {
        question: boundedText('question', MCP_LIMITS.question),
        budget: z
          .number()
          .int()
          .min(200)
          .max(100_000)
          .optional()
          .describe('context token budget (default from kb.config.json)'),
      },
      annotations: { ...RO, idempotentHint: false, openWorldHint: !opts.offline },
    },
    (args, extra) =>
      reply(ctx, async () => {
        const r = await askTool(ctx, args, model(), extra.signal);
        const cites = r.citations.map((c) => `- [[${c.file}]] (${c.id})`).join('\n');
        return {
          text: `${r.answer}\n\nCited entries:\n${cites || '- (none)'}`,
          structured: r as unknown as Record<string, unknown>,
        };
      }),
  );

  server.registerTool(
    'read',
    {
      title: 'Read an entry',
      description:
        'The whole Markdown file of one wiki entry (frontmatter and body), named by id, title, file name or alias.',
      inputSchema: {
        entry: boundedText('entry', MCP_LIMITS.entryName).describe(
          'id (e.g. concept/vector-database), title, file name or alias',
        ),
      },
      annotations: RO,
    },
    (args) =>
      reply(ctx, async () => {
        const r = readTool(ctx, args);
        return { text: r.text, structured: r };
      }),
  );
}

/** Tools that work with what was found: packed context, save, status. */
function registerWorkTools(server: McpServer, ctx: KbContext): void {
  server.registerTool(
    'context',
    {
      title: 'Packed context for a topic',
      description:
        'The most relevant entries and passages as <kb_entry> XML blocks within a token budget, ready to reason over. No model call.',
      inputSchema: {
        topic: boundedText('topic', MCP_LIMITS.query),
        budget: z
          .number()
          .int()
          .min(200)
          .max(100_000)
          .optional()
          .describe('token budget (default from kb.config.json)'),
      },
      annotations: RO,
    },
    (args, extra) =>
      reply(ctx, async () => {
        const r = await contextTool(ctx, args, extra.signal);
        return { text: r.xml || '<!-- the wiki has nothing on this topic yet -->', structured: r };
      }),
  );

  server.registerTool(
    'save',
    {
      title: 'Save an answer or note',
      description:
        'File Markdown into wiki/answers/<title>.md as an answer entry, linked to the entries it cites (their backlinks are updated) and indexed at once. Saving the same title again updates that entry, unless a person edited it (then it is refused).',
      inputSchema: {
        title: titleSchema.describe('the question answered, or the note title'),
        content: contentSchema.describe(
          `Markdown, at most ${MCP_LIMITS.contentBytes / 1024} KB; [[Entry]] links to existing entries are kept`,
        ),
        cites: citesSchema.optional().describe(`entries this builds on, by id or title (at most ${MCP_LIMITS.cites})`),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      reply(ctx, async () => {
        const r = await saveTool(ctx, args, extra.signal);
        const replaced = r.replaced ? `; it replaces version ${r.replaced.version} (by ${r.replaced.by})` : '';
        return { text: `${r.updated ? 'Updated' : 'Saved'} ${r.path} (${r.id})${replaced}.`, structured: r };
      }),
  );

  server.registerTool(
    'status',
    {
      title: 'Knowledge base status',
      description:
        'Sources compiled, pending, stale and failed; entries by kind; links and broken links; last compile and heal; store size; model spend.',
      inputSchema: {},
      annotations: RO,
    },
    () => reply(ctx, async () => json(statusTool(ctx))),
  );
}

/** The same knowledge as resources, for clients that let a person attach them: the index and every entry. */
function registerResources(server: McpServer, ctx: KbContext): void {
  server.registerResource(
    'index',
    'kb://wiki/index.md',
    {
      title: 'Wiki index',
      description: 'One line per entry, grouped by kind: what the knowledge base holds.',
      mimeType: 'text/markdown',
    },
    async (uri) => {
      let md: string;
      try {
        md = readFileSync(join(ctx.paths.wiki, 'index.md'), 'utf8');
      } catch {
        md = '# Index\n\nNothing compiled yet.\n';
      }
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: md }] };
    },
  );
  server.registerResource(
    'entry',
    new ResourceTemplate('kb://entry/{kind}/{slug}', {
      list: async () => ({
        resources: storeOnDisk(ctx)
          .allEntries()
          .map((e) => ({
            uri: entryUri(e.id),
            name: e.title,
            mimeType: 'text/markdown',
            ...(e.summary ? { description: e.summary.slice(0, 300) } : {}),
          })),
      }),
    }),
    {
      title: 'Wiki entry',
      description: 'One entry of the wiki as Markdown (frontmatter and body).',
      mimeType: 'text/markdown',
    },
    async (uri, vars) => {
      const id = `${decodeURIComponent(String(vars['kind']))}/${decodeURIComponent(String(vars['slug']))}`;
      storeOnDisk(ctx);
      const r = readTool(ctx, { entry: id });
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: r.text }] };
    },
  );
}

/** `kb://entry/concept/vector-database`; ids may hold any letters, so each part is percent-encoded. */
export function entryUri(id: string): string {
  const i = id.indexOf('/');
  return `kb://entry/${encodeURIComponent(id.slice(0, i))}/${encodeURIComponent(id.slice(i + 1))}`;
}

/** Serve on stdin/stdout until the client disconnects or `signal` aborts. Nothing else may write to stdout. */
export async function serveStdio(ctx: KbContext, signal: AbortSignal, opts: McpOptions = {}): Promise<void> {
  const server = createMcpServer(ctx, opts);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((res) => {
    transport.onclose = () => res();
    process.stdin.once('end', () => res());
    process.stdin.once('close', () => res());
    if (signal.aborted) res();
    else signal.addEventListener('abort', () => res(), { once: true });
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
