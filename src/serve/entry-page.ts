import type { Finding } from '../lint/types.js';
import type { EntryView, SourceFact } from './entry-view.js';
import { esc } from './html.js';
import { entryLink, kindBadge, layout, type PageContext } from './pages.js';

function fact(label: string, value: string): string {
  return value ? `<dt>${esc(label)}</dt><dd>${value}</dd>` : '';
}

function sourceItem(pc: PageContext, s: SourceFact): string {
  const what = s.entry ? entryLink(pc, s.entry) : `<code>${esc(s.raw ?? '')}</code>`;
  return `<li>${what}${s.date ? ` <time>${esc(s.date)}</time>` : ''}</li>`;
}

function sourcesSection(pc: PageContext, v: EntryView): string {
  const { w } = pc;
  if (!v.sources.length) return '';
  if (v.row.kind === 'source')
    return `<h2>${esc(w.sources)}</h2><ul class="sources">${v.sources.flatMap((g) => g.items.map((s) => sourceItem(pc, s))).join('')}</ul>`;
  const name = { en: w.english, zh: w.chinese, other: w.otherLanguage };
  return `<h2>${esc(w.quotedSources)}</h2>${v.sources
    .map(
      (g) =>
        `<h3 lang="${g.lang === 'other' ? '' : g.lang}">${esc(name[g.lang])} (${g.items.length})</h3><ul class="sources">${g.items.map((s) => sourceItem(pc, s)).join('')}</ul>`,
    )
    .join('')}`;
}

/** Lint findings about an entry, as the static export prints them (the server fills the same list by script). */
export function lintList(findings: readonly Finding[]): string {
  return findings
    .map(
      (f) =>
        `<li class="sev-${esc(f.severity)}"><code>${esc(f.ruleId ?? '')}</code> ${esc(f.reason)}${f.place ? ` <span class="where">${f.place.line}:${f.place.column}</span>` : ''}</li>`,
    )
    .join('');
}

/** An entry: facts from its frontmatter, the rendered body, sources, backlinks, lint findings. */
export function entryPage(pc: PageContext, v: EntryView, findings?: readonly Finding[]): string {
  const { w, h } = pc;
  const list = (xs: string[]) => xs.map((x) => `<span class="tag">${esc(x)}</span>`).join(' ');
  const facts = [
    fact(w.kind, kindBadge(pc, v.row.kind)),
    fact(w.aliases, list(v.aliases)),
    fact(w.tags, list(v.tags)),
    fact(w.version, v.version === undefined ? '' : String(v.version)),
    fact(w.updated, v.updated ? `<time>${esc(v.updated)}</time>` : ''),
  ].join('');
  const backlinks = v.backlinks.length
    ? `<ul>${v.backlinks.map((b) => `<li>${entryLink(pc, b)}</li>`).join('')}</ul>`
    : `<p class="none">${esc(w.noBacklinks)}</p>`;
  const lint = findings
    ? findings.length
      ? `<ul>${lintList(findings)}</ul>`
      : `<p class="none">${esc(w.noLint)}</p>`
    : `<p class="none">${esc(w.loading)}</p>`;
  const main = `<div class="entry-head">${kindBadge(pc, v.row.kind)} <a class="to-graph" href="${esc(h.graph(v.row.id))}">${esc(w.graph)}</a></div>
<dl class="facts">${facts}</dl>
<article class="entry">${v.html}</article>
<aside>${sourcesSection(pc, v)}
<h2>${esc(w.backlinks)} (${v.backlinks.length})</h2>${backlinks}
<section id="lint" data-id="${esc(v.row.id)}"${findings ? ' data-done="1"' : ''}><h2>${esc(w.lint)}</h2>${lint}</section></aside>`;
  return layout(pc, { name: 'entry', title: v.row.title, main });
}
