import { escapeLines, joinWrapped } from './plain.js';
import type { ConvertOutcome } from './types.js';

/** A transcript section spans about this long, so that every passage is found by its time. */
const SECTION_MS = 60_000;

/**
 * Subtitles (.srt, .vtt, .sbv) through subsrt-ts as a transcript: one `## hh:mm:ss`
 * section per minute or so, headed by the time of its first cue, so that a passage found by
 * search or cited by `kb ask` points at its place in the video (`[[Talk#00:12:05]]`).
 */
export async function convertSubtitle(text: string, ext: string, fallbackTitle: string): Promise<ConvertOutcome> {
  const subsrt = await import('subsrt-ts');
  const format = { '.srt': 'srt', '.vtt': 'vtt', '.sbv': 'sbv' }[ext] ?? subsrt.detect(text);
  let cues: { start: number; text: string }[];
  try {
    cues = subsrt
      .parse(text, { format })
      .flatMap((c) => (c.type === 'caption' ? [{ start: c.start, text: cueText(c.text) }] : []))
      .filter((c) => c.text);
  } catch (err) {
    return {
      problem: {
        ruleId: 'ingest-subtitle',
        reason: `Unexpected subtitle file kb cannot read (${(err as Error).message}), expected ${format.toUpperCase()} cues`,
        note: 'check that the file has timed cues, or save it as .txt',
      },
    };
  }
  if (!cues.length)
    return {
      problem: {
        ruleId: 'ingest-empty',
        reason: 'Unexpected subtitle file without cues, expected timed lines of text',
        note: 'check the file, or save it as .txt',
      },
    };
  const sections: { start: number; lines: string[] }[] = [];
  let last = '';
  for (const c of cues) {
    let cur = sections[sections.length - 1];
    if (!cur || c.start - cur.start >= SECTION_MS) {
      cur = { start: c.start, lines: [] };
      sections.push(cur);
    }
    // Rolling captions repeat the previous line: keep each line once.
    for (const line of c.text.split('\n')) {
      if (line && line !== last) cur.lines.push(line);
      last = line;
    }
  }
  const markdown = sections.map((s) => `## ${timestamp(s.start)}\n\n${escapeLines(joinWrapped(s.lines))}`).join('\n\n');
  return {
    converted: {
      title: fallbackTitle,
      markdown: `${markdown}\n`,
      meta: { duration: timestamp(cues[cues.length - 1]!.start) },
    },
  };
}

function cueText(s: string): string {
  return s
    .replace(/<[^>]+>/g, '')
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/** Milliseconds as `hh:mm:ss`. */
export function timestamp(ms: number): string {
  const s = Math.floor(ms / 1000);
  return [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, '0')).join(':');
}
