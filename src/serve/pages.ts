import type { EntryRow } from '../store/store.js';
import type { Catalog } from './catalog.js';
import { esc, hrefs, jsonScript, type Hrefs, type Site } from './html.js';
import { htmlLang, wordsFor, type Words } from './words.js';

export type PageName = 'index' | 'entry' | 'search' | 'ask' | 'graph' | 'missing';

export interface PageParts {
  name: PageName;
  title: string;
  main: string;
  /** JSON handed to the browser script (`<script type="application/json">`, never run). */
  data?: Record<string, unknown>;
  /** Extra scripts before app.js (the graph's libraries). */
  scripts?: string[];
}

/** What every page needs: the site, its links, and the words of the wiki's language. */
export interface PageContext {
  site: Site;
  h: Hrefs;
  w: Words;
  lang: string;
}

export function pageContext(site: Site, cat: Pick<Catalog, 'language'>): PageContext {
  return { site, h: hrefs(site), w: wordsFor(cat.language), lang: htmlLang(cat.language) };
}

/** The frame of every page: header with the navigation and a search box, the main part, the script. */
export function layout(pc: PageContext, p: PageParts): string {
  const { h, w, site } = pc;
  const nav = [
    [h.home, w.index, 'index'],
    [h.search(), w.search, 'search'],
    ...(site.static ? [] : [[h.ask, w.ask, 'ask']]),
    [h.graph(), w.graph, 'graph'],
  ]
    .map(
      ([href, label, name]) =>
        `<a href="${esc(href!)}"${name === p.name ? ' aria-current="page"' : ''}>${esc(label!)}</a>`,
    )
    .join('');
  const scripts = [...(p.scripts ?? []), 'app.js']
    .map((s) => `<script src="${esc(h.asset(s))}" defer></script>`)
    .join('');
  return `<!doctype html>
<html lang="${esc(pc.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${site.static ? `<meta http-equiv="Content-Security-Policy" content="${esc(STATIC_CSP)}">` : ''}<base href="${esc(site.base)}">
<title>${esc(p.title)} · kb</title><link rel="stylesheet" href="${esc(h.asset('app.css'))}"></head>
<body data-page="${p.name}" data-static="${site.static ? '1' : '0'}">
<header><a class="brand" href="${esc(h.home)}">kb</a><nav>${nav}</nav>
<form class="quick" action="${esc(h.search().replace(/\?.*/, ''))}" method="get"><input name="q" type="search" placeholder="${esc(w.searchPlaceholder)}" aria-label="${esc(w.search)}"></form></header>
<main>${p.main}</main>
${jsonScript('kb-words', w)}${jsonScript('kb-data', p.data ?? {})}${scripts}
</body></html>`;
}

/** The static copy's policy (the server sends its own as a header): scripts from its own files only. */
export const STATIC_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; connect-src 'none'; form-action 'self'";

const kindWord = (w: Words, kind: string) =>
  kind === 'source' || kind === 'concept' || kind === 'answer' ? w[kind] : kind;

export function entryLink(pc: PageContext, e: EntryRow): string {
  return `<a class="kind-${esc(e.kind)}" href="${esc(pc.h.entry(e.id))}">${esc(e.title)}</a>`;
}

export function kindBadge(pc: PageContext, kind: string): string {
  return `<span class="badge kind-${esc(kind)}">${esc(kindWord(pc.w, kind))}</span>`;
}

function firstSentence(s: string): string {
  const m = /^(.{20,220}?[.!?。！？])(\s|$)/u.exec(s);
  const one = (m?.[1] ?? s).replace(/\s+/g, ' ').trim();
  return Array.from(one).length > 220 ? `${Array.from(one).slice(0, 219).join('')}…` : one;
}

const line = (pc: PageContext, e: EntryRow | undefined) =>
  e
    ? `<li>${entryLink(pc, e)} <span class="gloss">${esc(firstSentence(e.summary).replace(/\[\[|\]\]/g, ''))}</span></li>`
    : '';

/** The start page: concepts grouped by topic (as wiki/index.md), then sources and answers, with counts. */
export function indexPage(pc: PageContext, cat: Catalog): string {
  const { w } = pc;
  const of = (kind: string) => cat.entries.filter((e) => e.kind === kind);
  const parts: string[] = [`<h1>${esc(w.index)}</h1><p class="count">${cat.entries.length} ${esc(w.entries)}</p>`];
  if (!cat.entries.length) parts.push(`<p>${esc(w.nothingCompiled)}</p>`);
  const concepts = of('concept');
  if (concepts.length) {
    parts.push(`<section class="group"><h2>${esc(w.concepts)} (${concepts.length})</h2>`);
    for (const t of cat.topics.topics) {
      const head = cat.byId.get(t.head);
      parts.push(
        `<h3>${esc(head?.title ?? t.head)} <span class="count">(${esc(w.topicCounts.replace('{concepts}', String(t.concepts.length)).replace('{sources}', String(t.sources.length)))})</span></h3><ul>`,
        ...t.concepts.map((c) => line(pc, cat.byId.get(c))),
        '</ul>',
      );
      const srcs = t.sources.map((s) => cat.byId.get(s)).filter((e): e is EntryRow => Boolean(e));
      if (srcs.length)
        parts.push(
          `<p class="topic-sources">${esc(w.sourcesOfTopic)}: ${srcs.map((s) => entryLink(pc, s)).join(' · ')}</p>`,
        );
    }
    if (cat.topics.rest.length)
      parts.push(
        `<h3>${esc(w.otherConcepts)}</h3><ul>`,
        ...cat.topics.rest.map((c) => line(pc, cat.byId.get(c))),
        '</ul>',
      );
    parts.push('</section>');
  }
  for (const [kind, label] of [
    ['source', w.sources],
    ['answer', w.answers],
  ] as const) {
    const group = of(kind);
    if (group.length)
      parts.push(
        `<section class="group"><h2>${esc(label)} (${group.length})</h2><ul>`,
        ...group.map((e) => line(pc, e)),
        '</ul></section>',
      );
  }
  return layout(pc, { name: 'index', title: w.index, main: parts.join('\n') });
}

export function searchPage(pc: PageContext, query: string, index?: unknown): string {
  const { w } = pc;
  const main = `<h1>${esc(w.search)}</h1>
<input id="q" type="search" value="${esc(query)}" placeholder="${esc(w.searchPlaceholder)}" autofocus autocomplete="off">
<div id="results" aria-live="polite"></div>`;
  return layout(pc, { name: 'search', title: w.search, main, ...(index ? { data: { index } } : {}) });
}

export function askPage(pc: PageContext): string {
  const { w } = pc;
  const main = `<h1>${esc(w.ask)}</h1>
<form id="ask-form"><input id="question" type="text" placeholder="${esc(w.askPlaceholder)}" autocomplete="off" required>
<button type="submit">${esc(w.askButton)}</button></form>
<div id="progress" hidden></div><article id="answer" hidden></article>
<p><button id="save" type="button" hidden>${esc(w.save)}</button></p><p id="save-result" aria-live="polite"></p>`;
  return layout(pc, { name: 'ask', title: w.ask, main });
}

export function graphPage(pc: PageContext, focus: EntryRow | undefined, graph?: unknown): string {
  const { w } = pc;
  const main = `<h1>${esc(w.graph)}${focus ? ` · ${entryLink(pc, focus)}` : ''}</h1>
<p class="legend">${['source', 'concept', 'answer'].map((k) => kindBadge(pc, k)).join(' ')} <span id="graph-count"></span>
${focus ? `<a href="${esc(pc.h.graph())}">${esc(w.wholeWiki)}</a>` : ''}</p>
<div id="graph"${focus ? ` data-id="${esc(focus.id)}"` : ''}>${esc(w.loading)}</div>`;
  return layout(pc, {
    name: 'graph',
    title: w.graph,
    main,
    scripts: ['graphology.umd.min.js', 'sigma.min.js'],
    ...(graph ? { data: { graph } } : {}),
  });
}

export function missingPage(pc: PageContext): string {
  return layout(pc, { name: 'missing', title: pc.w.notFound, main: `<h1>${esc(pc.w.notFound)}</h1>` });
}
