import { z } from 'zod';
import { cleanTitle } from '../entry/names.js';

/**
 * Bounds on everything an MCP client sends: an agent can send anything, and a 10 MB note would
 * be chunked, embedded and indexed for many seconds while holding the knowledge base's lock.
 */
export const MCP_LIMITS = {
  /** A search query or a context topic, in characters. */
  query: 2000,
  /** A question to `ask`, in characters. */
  question: 2000,
  /** The title of a saved note or answer, in characters. */
  title: 300,
  /** An entry name (id, title, file name or alias), in characters. */
  entryName: 500,
  /** The Markdown of a saved note or answer, in UTF-8 bytes. */
  contentBytes: 256 * 1024,
  /** Entries one save may cite. */
  cites: 50,
} as const;

const n = (x: number) => x.toLocaleString('en-US');

/** A required text of at most `max` characters, with an error that says which limit it passed. */
export function boundedText(what: string, max: number) {
  return z
    .string()
    .trim()
    .min(1, { message: `${what} is empty` })
    .max(max, { message: `${what} is longer than ${n(max)} characters` });
}

export const titleSchema = boundedText('title', MCP_LIMITS.title).refine((t) => cleanTitle(t).length > 0, {
  message: 'title has no visible characters',
});

export const contentSchema = z
  .string()
  .trim()
  .min(1, { message: 'content is empty' })
  .refine(
    (s) => Buffer.byteLength(s) <= MCP_LIMITS.contentBytes,
    (s) => ({
      message: `content is ${n(Buffer.byteLength(s))} bytes, more than the ${n(MCP_LIMITS.contentBytes / 1024)} KB a saved note may hold; save a summary and link to the rest`,
    }),
  );

export const citesSchema = z
  .array(boundedText('a cited entry name', MCP_LIMITS.entryName))
  .max(MCP_LIMITS.cites, { message: `cites names more than ${MCP_LIMITS.cites} entries` });
