/** Text for HTML content and attribute values. */
export function esc(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** JSON inside `<script type="application/json">`: no `<` can close the element. */
export function jsonScript(id: string, value: unknown): string {
  const json = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${esc(id)}">${json}</script>`;
}

/**
 * An entry's page name, `<kind>/<slug>` made safe as a file and URL path: every character but
 * letters, digits, `-` and `_` becomes `_xx`, so a hand-edited id (`../x`) never leaves its folder.
 */
export function pageName(id: string): string {
  const i = id.indexOf('/');
  const part = (s: string) =>
    Array.from(s)
      .map((c) => (/^[\p{L}\p{N}_-]$/u.test(c) ? c : `_${c.codePointAt(0)!.toString(16)}`))
      .join('') || '_';
  return i < 0 ? `entry/${part(id)}` : `${part(id.slice(0, i))}/${part(id.slice(i + 1))}`;
}

/** How the pages link to one another: the server's routes, or the files of a static export. */
export interface Site {
  /** A static copy (kb export --html): no server, pages end in .html, search from a prebuilt index. */
  static: boolean;
  /** `<base href>` of a page: `/` when served; the way back to the export's root from a static page. */
  base: string;
}

export function hrefs(site: Site) {
  const ext = site.static ? '.html' : '';
  return {
    home: site.static ? 'index.html' : './',
    entry: (id: string) => `entry/${pageName(id).split('/').map(encodeURIComponent).join('/')}${ext}`,
    search: (query = '') => `search${ext}${query ? `?q=${encodeURIComponent(query)}` : ''}`,
    ask: `ask${ext}`,
    graph: (id?: string) => `graph${ext}${id ? `?id=${encodeURIComponent(id)}` : ''}`,
    asset: (name: string) => `assets/${name}`,
    wikiFile: (path: string) => `wiki/${path.split('/').map(encodeURIComponent).join('/')}`,
  };
}

export type Hrefs = ReturnType<typeof hrefs>;
