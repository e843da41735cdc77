import { linkMarkup } from '../entry/links.js';
import { sentences } from '../text/segment.js';
import type { Citation } from './answer.js';

/**
 * An answer as a Marp slide deck (frontmatter `marp: true`, slides separated by `---`):
 * a title slide, the answer a few sentences per slide, and the sources.
 */
export function marpBody(title: string, answer: string, citations: Citation[], perSlide = 3): string {
  const paras = answer
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const units = paras.length > 1 ? paras : sentences(answer);
  const slides: string[] = [`# ${title}`];
  for (let i = 0; i < units.length; i += perSlide) {
    slides.push(
      `## Answer${units.length > perSlide ? ` (${i / perSlide + 1})` : ''}\n\n${units.slice(i, i + perSlide).join('\n\n')}`,
    );
  }
  if (citations.length)
    slides.push(`## Sources\n\n${citations.map((c) => `- ${linkMarkup(c.file, c.title)}`).join('\n')}`);
  return `${slides.join('\n\n---\n\n')}\n`;
}

export const MARP_FRONTMATTER = { marp: true, paginate: true } as const;
