// kb's pages in the browser: search as you type, ask and save, lint findings, the graph.
// Plain script (no bundler); every text from the wiki goes into the page as text, never as HTML,
// except answers, which the server has rendered through the same sanitizer as the entries.
{
  const json = (id) => JSON.parse(document.getElementById(id)?.textContent || '{}');
  const words = json('kb-words');
  const data = json('kb-data');
  const isStatic = document.body.dataset.static === '1';
  const el = (tag, props = {}, ...kids) => {
    const e = document.createElement(tag);
    Object.assign(e, props);
    for (const k of kids) e.append(k);
    return e;
  };

  async function call(path, body) {
    const r = await fetch(
      path,
      body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {},
    );
    const out = await r.json();
    if (!r.ok) throw new Error(out.error || r.statusText);
    return out;
  }

  // ---- search

  /** Query words: Latin words whole, Chinese as overlapping pairs of characters (as kb indexes it). */
  function terms(q) {
    const out = [];
    for (const run of q.toLowerCase().match(/[\p{Script=Han}]+|[\p{L}\p{N}]+/gu) || []) {
      if (!/\p{Script=Han}/u.test(run) || run.length < 3) out.push(run);
      else for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
    }
    return [...new Set(out)];
  }

  /** The static copy's search: every entry of the prebuilt index scored by where the words occur. */
  function localSearch(index, q) {
    const ts = terms(q);
    if (!ts.length) return { entries: [], passages: [] };
    const scored = [];
    for (const e of index) {
      const fields = [e.t.toLowerCase(), e.a.join(' ').toLowerCase(), e.s.toLowerCase(), e.b.toLowerCase()];
      let score = 0;
      let hits = 0;
      for (const t of ts) {
        const w = [5, 4, 2, 1].reduce((s, weight, i) => s + (fields[i].includes(t) ? weight : 0), 0);
        if (w) hits++;
        score += w;
      }
      if (hits) scored.push({ e, score: score * (hits / ts.length) ** 2 });
    }
    scored.sort((a, b) => b.score - a.score);
    const top = scored.slice(0, 10);
    const passages = top.slice(0, 5).flatMap(({ e }) => {
      const body = e.b.toLowerCase();
      const at = Math.max(...ts.map((t) => body.indexOf(t)));
      return at < 0 ? [] : [{ title: e.t, heading: '', text: e.b.slice(Math.max(0, at - 80), at + 160), href: e.h }];
    });
    return { entries: top.map(({ e }) => ({ title: e.t, kind: e.k, summary: e.s, href: e.h })), passages };
  }

  function showResults(box, r) {
    box.replaceChildren();
    if (!r.entries.length) {
      box.append(el('p', { className: 'none', textContent: words.noResults }));
      return;
    }
    const list = el('ol', { className: 'results' });
    for (const e of r.entries) {
      const badge = el('span', { className: `badge kind-${e.kind}`, textContent: words[e.kind] || e.kind });
      list.append(
        el(
          'li',
          {},
          el('a', { href: e.href, textContent: e.title, className: `kind-${e.kind}` }),
          ' ',
          badge,
          el('p', { className: 'gloss', textContent: e.summary.slice(0, 240) }),
        ),
      );
    }
    box.append(list);
    if (r.passages.length) {
      box.append(el('h2', { textContent: words.passages }));
      const ps = el('ol', { className: 'passages' });
      for (const p of r.passages)
        ps.append(
          el(
            'li',
            {},
            el('a', { href: p.href, textContent: p.title + (p.heading ? ` › ${p.heading}` : '') }),
            el('blockquote', { textContent: p.text.slice(0, 400) }),
          ),
        );
      box.append(ps);
    }
  }

  function setupSearch() {
    const input = document.getElementById('q');
    const box = document.getElementById('results');
    if (!input || !box) return;
    let timer = 0;
    let seq = 0;
    const run = async () => {
      const q = input.value.trim();
      const mine = ++seq;
      // The page's own path: a relative `?q=` would resolve against <base>.
      history.replaceState(null, '', location.pathname + (q ? `?q=${encodeURIComponent(q)}` : ''));
      if (!q) return box.replaceChildren();
      try {
        const r = isStatic ? localSearch(data.index || [], q) : await call(`api/search?q=${encodeURIComponent(q)}`);
        if (mine === seq) showResults(box, r);
      } catch (err) {
        if (mine === seq) box.replaceChildren(el('p', { className: 'error', textContent: err.message }));
      }
    };
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(run, 120);
    });
    const q = new URLSearchParams(location.search).get('q');
    if (q) input.value = q;
    if (input.value) run();
  }

  // ---- ask and save

  function showAnswer(box, a) {
    box.hidden = false;
    // Rendered by the server: Markdown through remark and rehype-sanitize, as every entry.
    box.innerHTML = a.html;
    const how = a.mode === 'model' ? `${words.model} ${a.model}` : words.offline;
    box.append(el('p', { className: 'how', textContent: how + (a.cached ? ` · ${words.cached}` : '') }));
    if (a.citations.length) {
      const list = el('ul', { className: 'citations' });
      for (const c of a.citations) list.append(el('li', {}, el('a', { href: c.href, textContent: c.title })));
      box.append(el('h2', { textContent: words.citations }), list);
    }
    for (const w of a.warnings) box.append(el('p', { className: 'warning', textContent: w }));
  }

  function setupAsk() {
    const form = document.getElementById('ask-form');
    if (!form) return;
    const [progress, box, save, saved] = ['progress', 'answer', 'save', 'save-result'].map((id) =>
      document.getElementById(id),
    );
    let answerId = '';
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const question = document.getElementById('question').value.trim();
      if (!question) return;
      const t0 = Date.now();
      const tick = () =>
        (progress.textContent = `${words.thinking} ${Math.round((Date.now() - t0) / 1000)} ${words.seconds}`);
      tick();
      progress.hidden = false;
      const timer = setInterval(tick, 1000);
      save.hidden = true;
      saved.textContent = '';
      try {
        const a = await call('api/ask', { question });
        answerId = a.id;
        showAnswer(box, a);
        save.hidden = a.problems.length > 0;
        if (a.problems.length) saved.textContent = `${words.notSaved}: ${a.problems.join('; ')}`;
      } catch (err) {
        box.hidden = false;
        box.replaceChildren(el('p', { className: 'error', textContent: err.message }));
      } finally {
        clearInterval(timer);
        progress.hidden = true;
      }
    });
    save.addEventListener('click', async () => {
      save.disabled = true;
      try {
        const r = await call('api/save', { id: answerId });
        saved.replaceChildren(`${words.saved} `, el('a', { href: r.href, textContent: r.path }));
        save.hidden = true;
      } catch (err) {
        saved.textContent = `${words.notSaved}: ${err.message}`;
      } finally {
        save.disabled = false;
      }
    });
  }

  // ---- lint findings of an entry

  async function setupLint() {
    const box = document.getElementById('lint');
    if (!box || box.dataset.done || isStatic) return;
    try {
      const r = await call(`api/lint?id=${encodeURIComponent(box.dataset.id)}`);
      const list = el('ul');
      for (const f of r.findings) {
        const where = f.place ? ` ${f.place.line}:${f.place.column}` : '';
        list.append(
          el('li', { className: `sev-${f.severity}` }, el('code', { textContent: f.ruleId }), ` ${f.reason}${where}`),
        );
      }
      box.replaceChildren(
        el('h2', { textContent: words.lint }),
        r.findings.length ? list : el('p', { className: 'none', textContent: words.noLint }),
      );
    } catch (err) {
      box.append(el('p', { className: 'error', textContent: err.message }));
    }
  }

  // ---- graph

  const COLOURS = { source: '#4c78a8', concept: '#f58518', answer: '#54a24b' };

  /** The static copy's neighbourhood: the entry, its links both ways, from the whole graph. */
  function around(g, id) {
    const i = g.nodes.findIndex((n) => n.id === id);
    if (i < 0) return g;
    const keep = new Set([i]);
    for (const [a, b] of g.edges) if (a === i || b === i) keep.add(a === i ? b : a);
    const order = [...keep];
    const at = new Map(order.map((n, k) => [n, k]));
    return {
      nodes: order.map((n) => g.nodes[n]),
      total: order.length,
      totalEdges: 0,
      edges: g.edges.filter(([a, b]) => at.has(a) && at.has(b)).map(([a, b]) => [at.get(a), at.get(b)]),
      focus: id,
    };
  }

  function drawGraph(box, g) {
    const graph = new graphology.Graph({ type: 'directed', multi: false, allowSelfLoops: false });
    // Thousands of nodes at their own size would cover one another: smaller the more there are.
    const scale = Math.min(1, Math.sqrt(1000 / g.nodes.length));
    for (const n of g.nodes)
      graph.addNode(n.id, {
        label: n.label,
        x: n.x,
        y: n.y,
        size: (n.id === g.focus ? 2 : 1) * n.size * scale,
        color: COLOURS[n.kind] || '#999',
        href: n.href,
      });
    for (const [a, b] of g.edges) graph.mergeEdge(g.nodes[a].id, g.nodes[b].id, { color: '#ccc', size: 0.5 });
    box.replaceChildren();
    const sigma = new Sigma(graph, box, {
      labelFont: getComputedStyle(document.body).fontFamily,
      labelRenderedSizeThreshold: g.nodes.length > 500 ? 12 : 4,
      hideEdgesOnMove: g.nodes.length > 2000,
      hideLabelsOnMove: g.nodes.length > 2000,
    });
    sigma.on('clickNode', ({ node }) => (location.href = graph.getNodeAttribute(node, 'href')));
    // The whole graph stops at 10,000 entries: say so when the wiki holds more.
    const shown = g.total > g.nodes.length ? `${g.nodes.length}/${g.total}` : `${g.nodes.length}`;
    const links = g.totalEdges > g.edges.length ? `${g.edges.length}/${g.totalEdges}` : `${g.edges.length}`;
    document.getElementById('graph-count').textContent = `${shown} ${words.nodes} · ${links} ${words.edges}`;
    window.kbGraph = { sigma, graph };
  }

  async function setupGraph() {
    const box = document.getElementById('graph');
    if (!box) return;
    const id = box.dataset.id || new URLSearchParams(location.search).get('id');
    try {
      const g = isStatic
        ? id
          ? around(data.graph, id)
          : data.graph
        : await call(`api/graph${id ? `?id=${encodeURIComponent(id)}` : ''}`);
      drawGraph(box, g);
    } catch (err) {
      box.replaceChildren(el('p', { className: 'error', textContent: err.message }));
    }
  }

  window.kbSearch = { terms, localSearch };
  setupSearch();
  setupAsk();
  setupLint();
  setupGraph();
}
