import type { KbContext } from '../kb/context.js';
import type { KbMessage } from '../diagnostics/message.js';
import type { EntityRow } from '../store/store.js';
import { message } from '../diagnostics/message.js';
import type { EntryFrontmatter, EntryId, EntryKind, WikiPath } from '../types.js';
import type { ConceptGroup, EntryWriter, ProgressEvent, SourceDraft } from '../compile/types.js';
import type { PlannedConcept } from '../compile/concepts.js';
import { entityKey } from '../compile/offline/entities.js';
import { KIND_FOLDER, linkKey, makeEntryId, safeFileName } from '../entry/names.js';
import { neutralizeMarkers, replaceSectionVerbatim, setSection } from '../entry/markers.js';
import { bodyHash, parseEntryFile, setFrontmatterKey } from '../entry/frontmatter.js';
import { entryValidator, schemaErrors } from '../entry/validate.js';
import { writeFileAtomic } from '../util/atomic.js';
import { extractWikiLinks } from '../parse/links.js';
import { autolink, buildNameTable, linkMarkup, resolveLinks, type LinkName } from './linker.js';
import { removeEntryFile, writeEntry, type LoadedEntry, type ScanCache, type WikiScan } from './wiki.js';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { writeIndexes } from './indexes.js';
import { chunkMarkdown } from '../chunk/index.js';
import { copyAttachments, keepsOriginal } from './attachments.js';

export interface PlannedEntry {
  kind: 'source';
  id: EntryId;
  title: string;
  rawPath: string;
  rawHash: string;
  draft: SourceDraft | undefined;
  reload: (() => Promise<SourceDraft | undefined>) | undefined;
  changed: boolean;
}

export interface EmitInput {
  planned: PlannedEntry[];
  groups: PlannedConcept[];
  scan: WikiScan;
  /** Told about every file written, so the next scan need not parse it again. */
  scanCache?: ScanCache | undefined;
  /** Every document's entities, as the store holds them after this run's updates. */
  entities: EntityRow[];
  writer: EntryWriter;
  force: boolean;
  takenIds: Set<string>;
  /** Where a raw file is on disk (its key is NFC; the name on disk may be spelled otherwise). */
  rawAbs?: ((rawPath: string) => string) | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((e: ProgressEvent) => void) | undefined;
  onFile?: ((line: string) => void) | undefined;
}

export interface EmitResult {
  messages: KbMessage[];
  protected: string[];
  written: number;
  concepts: { created: number; updated: number; deleted: number };
}

/** An entry in its final state for this run. */
interface Final {
  id: EntryId;
  kind: EntryKind;
  title: string;
  path: string;
  fm: EntryFrontmatter;
  body: string;
  links: Set<string>;
  humanEdited: boolean;
  /** The body of a kept entry was changed this run (links or backlinks). */
  touched?: boolean;
  /** Content re-rendered this run (version + 1 if the body changed). */
  rendered: boolean;
  /** An entry a person edited whose kb sections (backlinks) this run brings up to date. */
  refreshed?: boolean;
  old: LoadedEntry | undefined;
}

const now = () => Math.floor(Date.now() / 1000);

/** Plan file names, render what changed, keep links resolvable, refresh backlinks, write, index. */
export async function emitWiki(ctx: KbContext, input: EmitInput): Promise<EmitResult> {
  const { store, paths } = ctx;
  const messages: KbMessage[] = [];
  const result: EmitResult = { messages, protected: [], written: 0, concepts: { created: 0, updated: 0, deleted: 0 } };
  const validate = entryValidator(paths.root);
  const oldById = new Map<string, LoadedEntry>(input.scan.entries.map((e) => [e.fm.id, e]));
  const offline = input.writer.name.startsWith('offline');

  // Concept ids: existing entry, else a new one.
  for (const g of input.groups) {
    if (g.id && oldById.get(g.id)?.fm.kind === 'concept') continue;
    g.id = makeEntryId('concept', g.title, (id) => input.takenIds.has(id));
    input.takenIds.add(g.id);
  }

  // --- File names: unique across the whole wiki, case-insensitively (Obsidian resolves by base name).
  const taken = new Map<string, string>(); // linkKey(base) → id
  const pathOf = new Map<string, string>();
  const base = (p: string) => p.replace(/\.md$/, '').split('/').pop() ?? p;
  const keepIds = new Set<string>([...input.planned.map((p) => p.id), ...input.groups.map((g) => g.id!)]);
  const entryPaths = new Set(input.scan.entries.map((e) => e.path as string));
  for (const f of input.scan.files) if (!f.endsWith('.md') || !entryPaths.has(f)) taken.set(linkKey(base(f)), `file:${f}`);
  // Attachments are copied into wiki/attachments/ under their own names: no entry may take one,
  // or `[[diagram.png]]` would name both the image and its entry.
  for (const d of store.allDocuments()) if (keepsOriginal(d.type)) taken.set(linkKey(d.raw_path.split('/').pop()!), `file:attachments/${d.raw_path}`);
  const wanted: { id: string; kind: EntryKind; title: string }[] = [
    ...input.planned.map((p) => ({ id: p.id, kind: 'source' as const, title: p.draft?.title ?? oldById.get(p.id)?.fm.title ?? p.title })),
    ...input.groups.map((g) => ({ id: g.id!, kind: 'concept' as const, title: g.title })),
  ];
  // Entries kept as they are (answers, human-edited, unreadable ones) hold their names first.
  for (const e of input.scan.entries) {
    // Answers and entries a person edited stay; sources and concepts not planned are removed below.
    if ((!keepIds.has(e.fm.id) && e.fm.kind === 'answer') || e.humanEdited) {
      taken.set(linkKey(base(e.path)), e.fm.id);
      pathOf.set(e.fm.id, e.path);
    }
  }
  for (const w of wanted) {
    const old = oldById.get(w.id);
    if (old && (old.humanEdited || safeFileName(w.title) === base(old.path) || base(old.path).startsWith(`${safeFileName(w.title)} (`))) {
      if (!taken.has(linkKey(base(old.path))) || taken.get(linkKey(base(old.path))) === w.id) {
        taken.set(linkKey(base(old.path)), w.id);
        pathOf.set(w.id, old.path);
      }
    }
  }
  for (const w of wanted) {
    if (pathOf.has(w.id)) continue;
    const b = safeFileName(w.title);
    let name = b;
    for (let n = 1; taken.has(linkKey(name)) && taken.get(linkKey(name)) !== w.id; n++) name = n === 1 ? `${b} (${w.kind})` : `${b} (${w.kind} ${n})`;
    taken.set(linkKey(name), w.id);
    pathOf.set(w.id, `${KIND_FOLDER[w.kind]}/${name}.md`);
  }

  // --- Names that link: titles, file names and concept aliases.
  const names: LinkName[] = [];
  const titleOf = new Map<EntryId, string>();
  for (const w of wanted) titleOf.set(w.id as EntryId, w.title);
  for (const e of input.scan.entries) if (!titleOf.has(e.fm.id) && pathOf.has(e.fm.id)) titleOf.set(e.fm.id, e.fm.title);
  for (const [id, title] of titleOf) {
    const file = base(pathOf.get(id)!);
    names.push({ name: title, file, id }, { name: file, file, id });
    // "Lilu (mythology)" is written "Lilu" in running text: the bare name links too (unless ambiguous).
    const bare = title.replace(/\s*[(（][^()（）]*[)）]\s*$/, '').trim();
    if (bare && bare !== title && Array.from(bare).length >= 3) names.push({ name: bare, file, id });
  }
  for (const g of input.groups) for (const a of g.aliases) names.push({ name: a, file: base(pathOf.get(g.id!)!), id: g.id! });
  for (const e of input.scan.entries) if (e.fm.kind === 'answer') for (const a of e.fm.aliases ?? []) names.push({ name: a, file: base(e.path), id: e.fm.id });
  const table = buildNameTable(names);
  // Old file names of moved entries still resolve (links written by a person before a rename).
  for (const e of input.scan.entries) {
    const p = pathOf.get(e.fm.id);
    if (p && p !== e.path) table.byKey.set(linkKey(base(e.path)), { name: base(e.path), file: base(p), id: e.fm.id });
  }
  const lookup = (t: string): LinkName | undefined => table.byKey.get(linkKey(t));
  const attachments = new Set([
    ...input.scan.files.filter((f) => !f.endsWith('.md')).map((f) => linkKey(f.split('/').pop()!)),
    ...store.allDocuments().filter((d) => keepsOriginal(d.type)).map((d) => linkKey(d.raw_path.split('/').pop()!)),
  ]);

  // --- What to render.
  const entsByDoc = new Map<string, Set<string>>();
  for (const e of input.entities) {
    const s = entsByDoc.get(e.raw_path) ?? new Set<string>();
    s.add(e.key);
    for (const a of e.aliases) s.add(entityKey(a));
    entsByDoc.set(e.raw_path, s);
  }
  const changedDocs = new Set(input.planned.filter((p) => p.changed).map((p) => p.rawPath));
  const oldConcepts = input.scan.entries.filter((e) => e.fm.kind === 'concept');
  const groupIds = new Set(input.groups.map((g) => g.id!));
  const shifted = new Set<string>(); // keys of concepts created, deleted or retitled
  const renderConcept = new Set<string>();
  for (const g of input.groups) {
    const old = oldById.get(g.id!);
    const refs = g.mentions.map((m) => `raw/${m.rawPath}`).sort().join('\n');
    const oldRefs = [...(old?.fm.source_ref ?? [])].sort().join('\n');
    const had = new Set((old?.fm.aliases ?? []).map((a) => a.toLowerCase()));
    const aliasesChanged = g.aliases.some((a) => !had.has(a.toLowerCase()));
    if (!old || old.fm.title !== g.title || aliasesChanged) for (const k of g.keys) shifted.add(k);
    if (!old || input.force || refs !== oldRefs || aliasesChanged || old.fm.title !== g.title || g.mentions.some((m) => changedDocs.has(m.rawPath))) renderConcept.add(g.id!);
  }
  for (const c of oldConcepts) if (!groupIds.has(c.fm.id)) for (const k of [c.fm.title, ...(c.fm.aliases ?? [])]) shifted.add(entityKey(k));
  const plannedIds = new Set(input.planned.map((p) => p.id));
  for (const e of input.scan.entries) if (e.fm.kind === 'source' && !plannedIds.has(e.fm.id)) shifted.add(entityKey(e.fm.title));
  for (const p of input.planned) if (!oldById.has(p.id)) shifted.add(entityKey(p.title));
  const renderSource = new Set<string>();
  for (const p of input.planned) {
    const old = oldById.get(p.id);
    if (p.changed || !old || old.path !== pathOf.get(p.id)) renderSource.add(p.id);
    else {
      const keys = entsByDoc.get(p.rawPath);
      if (keys && [...shifted].some((k) => keys.has(k))) renderSource.add(p.id);
    }
  }

  // --- Render.
  const finals = new Map<string, Final>();
  const conceptsOfDoc = new Map<string, PlannedConcept[]>();
  for (const g of input.groups) for (const m of g.mentions) (conceptsOfDoc.get(m.rawPath) ?? conceptsOfDoc.set(m.rawPath, []).get(m.rawPath)!).push(g);

  const conceptsSection = (concepts: PlannedConcept[]) =>
    concepts.length ? `## Concepts\n\n${concepts.map((g) => `- ${linkMarkup(base(pathOf.get(g.id!)!), g.title)}`).join('\n')}` : null;
  const total = renderSource.size + renderConcept.size;
  let done = 0;
  // Entries a person edited are not rendered again: their text is theirs (kb refreshes only its sections).
  const heldBack = new Set<string>();
  for (const p of input.planned) {
    if (!renderSource.has(p.id)) continue;
    const old = oldById.get(p.id);
    if (old?.humanEdited) {
      heldBack.add(p.id);
      continue;
    }
    const draft = p.draft ?? (await p.reload?.());
    input.onProgress?.({ phase: 'write', done: done++, total, file: p.rawPath });
    if (!draft) continue;
    const concepts = (conceptsOfDoc.get(p.rawPath) ?? []).filter((g) => g.mentions.some((m) => m.rawPath === p.rawPath));
    // What a document or the model wrote can never pass for one of kb's marked sections.
    let body = neutralizeMarkers(`# ${draft.title}\n\n${draft.summary}\n\n${draft.body}`);
    const conceptList = conceptsSection(concepts);
    if (conceptList) body = insertBefore(body, '## Source', `<!-- kb:concepts -->\n${conceptList}\n<!-- /kb:concepts -->`);
    // Link mentions in what the entry says, not in its file details.
    let linked = body;
    if (offline) {
      const cut = body.indexOf('\n## Source');
      const head = cut >= 0 ? body.slice(0, cut) : body;
      linked = autolink(head, table, p.id) + (cut >= 0 ? body.slice(cut) : '');
    }
    const { text, links } = resolveLinks(linked, lookup, attachments);
    const fm: EntryFrontmatter = {
      ...(old?.fm ?? {}),
      id: p.id,
      kind: 'source',
      title: draft.title,
      aliases: mergeAliases(draft.aliases, old?.fm.aliases),
      summary: oneLine(draft.summary) || draft.title,
      source_ref: [`raw/${p.rawPath}`],
      entities: concepts.map((g) => g.title),
      backlinks: old?.fm.backlinks ?? [],
      version: old?.fm.version ?? 0,
      last_heal_timestamp: old?.fm.last_heal_timestamp ?? 0,
      content_hash: '',
      source_hashes: { [`raw/${p.rawPath}`]: p.rawHash },
      compiled_by: draft.compiledBy,
    };
    finals.set(p.id, { id: p.id, kind: 'source', title: draft.title, path: pathOf.get(p.id)!, fm, body: text, links: new Set(links), humanEdited: Boolean(old?.humanEdited), rendered: true, old });
  }
  const catalog = { entries: [...titleOf].map(([id, title]) => ({ id: id as EntryId, title, aliases: [], kind: id.split('/')[0] ?? '', summary: '' })) };
  // Concept drafts do not depend on each other: start them all, so a model writer can run its
  // calls concurrently (it bounds them itself); they are used in order below.
  const conceptDrafts = new Map<string, ReturnType<EntryWriter['writeConcept']>>();
  for (const g of input.groups) {
    if (!renderConcept.has(g.id!)) continue;
    if (oldById.get(g.id!)?.humanEdited) {
      heldBack.add(g.id!);
      continue;
    }
    const mentions = g.mentions.map((m) => ({ ...m, sourceTitle: base(pathOf.get(m.sourceId) ?? m.sourceId) }));
    const pending = input.writer.writeConcept({ key: g.key, title: g.title, aliases: g.aliases, mentions }, catalog, input.signal);
    pending.catch(() => undefined);
    conceptDrafts.set(g.id!, pending);
  }
  for (const g of input.groups) {
    if (!renderConcept.has(g.id!) || heldBack.has(g.id!)) continue;
    input.onProgress?.({ phase: 'write', done: done++, total, file: g.title });
    const old = oldById.get(g.id!);
    const group: ConceptGroup = {
      key: g.key,
      title: g.title,
      aliases: g.aliases,
      mentions: g.mentions.map((m) => ({ ...m, sourceTitle: base(pathOf.get(m.sourceId) ?? m.sourceId) })),
    };
    const { draft, messages: wm } = await (conceptDrafts.get(g.id!) ?? input.writer.writeConcept(group, catalog, input.signal));
    messages.push(...wm);
    // What a document or the model wrote can never pass for one of kb's marked sections.
    let body = neutralizeMarkers(`# ${draft.title}\n\n${draft.summary}\n\n${draft.body}`);
    if (offline) body = autolink(body, table, g.id!, new Set(g.mentions.map((m) => m.sourceId)));
    const { text, links } = resolveLinks(body, lookup, attachments);
    const fm: EntryFrontmatter = {
      ...(old?.fm ?? {}),
      id: g.id!,
      kind: 'concept',
      title: g.title,
      aliases: mergeAliases(draft.aliases, old?.fm.aliases),
      summary: oneLine(draft.summary) || g.title,
      source_ref: g.mentions.map((m) => `raw/${m.rawPath}`),
      entities: [],
      backlinks: old?.fm.backlinks ?? [],
      version: old?.fm.version ?? 0,
      last_heal_timestamp: old?.fm.last_heal_timestamp ?? 0,
      content_hash: '',
      compiled_by: draft.compiledBy,
    };
    delete fm.source_hashes;
    finals.set(g.id!, { id: g.id!, kind: 'concept', title: g.title, path: pathOf.get(g.id!)!, fm, body: text, links: new Set(links), humanEdited: Boolean(old?.humanEdited), rendered: true, old });
  }

  // --- Everything else keeps its content; links to entries that are gone become plain text.
  const deleted: LoadedEntry[] = [];
  const liveIds = new Set([...plannedIds, ...groupIds]);
  for (const e of input.scan.entries) {
    if (finals.has(e.fm.id)) continue;
    const stays = liveIds.has(e.fm.id) || e.fm.kind === 'answer' || e.humanEdited;
    if (!stays) {
      deleted.push(e);
      continue;
    }
    const row = store.getEntry(e.fm.id);
    let links: string[];
    if (row && row.content_hash === e.fm.content_hash && !e.humanEdited) links = store.linksFrom(e.fm.id);
    else links = extractWikiLinks(setSection(e.body, 'backlinks', null)).map((l) => lookup(l.target)?.id).filter((x): x is string => Boolean(x));
    finals.set(e.fm.id, keptFinal(e, pathOf.get(e.fm.id) ?? e.path, links));
  }
  const goneIds = new Set<string>(deleted.filter((e) => !e.humanEdited).map((e) => e.fm.id));
  // Entries whose file moved (a new title): links to them are rewritten to the new name.
  const movedIds = new Set<string>([...finals.values()].filter((f) => f.old && f.old.path !== f.path).map((f) => f.id));
  for (const f of finals.values()) {
    if (f.rendered || f.humanEdited) continue;
    if ([...f.links].some((l) => goneIds.has(l) || movedIds.has(l) || !finals.has(l))) {
      const { text, links } = resolveLinks(f.body, lookup, attachments);
      f.body = text;
      f.links = new Set(links);
    }
  }

  // --- Backlinks: from the final link graph.
  const rawOf = new Map<string, string>(input.planned.map((p) => [p.id, p.rawPath]));
  const inbound = new Map<string, Set<string>>();
  for (const f of finals.values()) for (const l of f.links) if (finals.has(l) && l !== f.id) (inbound.get(l) ?? inbound.set(l, new Set()).get(l)!).add(f.id);
  for (const f of finals.values()) {
    const ins = [...(inbound.get(f.id) ?? [])].sort((a, b) => (finals.get(a)!.title).localeCompare(finals.get(b)!.title));
    if (f.humanEdited) {
      // kb's section stays true even in an entry a person edited; their text stays byte for byte.
      const section = ins.length ? `## Backlinks\n\n${ins.map((i) => `- ${linkMarkup(base(finals.get(i)!.path), finals.get(i)!.title)}`).join('\n')}` : null;
      const was = f.old?.body ?? f.body;
      let body = replaceSectionVerbatim(was, 'backlinks', section);
      const raw = rawOf.get(f.id);
      if (raw !== undefined) body = replaceSectionVerbatim(body, 'concepts', conceptsSection((conceptsOfDoc.get(raw) ?? []).filter((g) => finals.has(g.id!))), { append: false });
      if (body !== was || !sameList(f.fm.backlinks ?? [], ins)) {
        f.fm.backlinks = ins;
        f.body = body;
        f.links = new Set(extractWikiLinks(setSection(body, 'backlinks', null)).map((l) => lookup(l.target)?.id).filter((x): x is string => Boolean(x)));
        f.refreshed = true;
      }
      continue;
    }
    const same = !f.rendered && !f.touched && f.old && f.old.path === f.path && sameList(f.old.fm.backlinks ?? [], ins);
    f.fm.backlinks = ins;
    if (same) continue; // its backlinks section is already right: do not even read the body
    const section = ins.length ? `## Backlinks\n\n${ins.map((i) => `- ${linkMarkup(base(finals.get(i)!.path), finals.get(i)!.title)}`).join('\n')}` : null;
    f.body = setSection(f.body, 'backlinks', section);
  }

  // --- Write.
  const wikiDir = paths.wiki;
  const written: Final[] = [];
  const cacheRows: [string, Parameters<ScanCache['put']>[1]][] = [];
  for (const f of finals.values()) {
    const old = f.old;
    if (f.humanEdited) {
      if (heldBack.has(f.id) || (old && old.path !== f.path)) {
        result.protected.push(`wiki/${old?.path ?? f.path}`);
        messages.push(message(`wiki/${old?.path ?? f.path}`, 'human-edited', 'Unexpected edit by a person since kb wrote this entry, expected the text kb wrote; left as it is', { severity: 'info', note: 'compile never overwrites a person\'s edits (it refreshes only its marked sections); `kb lint --heal` proposes an update on a branch' }));
      }
      if (f.refreshed && old && writeEditedSections(wikiDir, old, f, validate)) {
        if (input.scanCache) {
          const st = statSync(join(wikiDir, f.path));
          cacheRows.push([f.path, { mtimeMs: st.mtimeMs, size: st.size, fm: structuredClone(f.fm), bodyHash: bodyHash(f.body) }]);
        }
        written.push(f);
        result.written++;
        input.onFile?.(`refresh wiki/${f.path} (backlinks; your text kept)`);
      }
      continue;
    }
    if (!f.rendered && !f.touched && old && old.path === f.path) continue;
    const contentChanged = !old || stripBacklinks(old.body) !== stripBacklinks(f.body) || old.fm.title !== f.fm.title;
    if (f.rendered || contentChanged) {
      f.fm.version = contentChanged ? (old?.fm.version ?? 0) + 1 : Math.max(1, old?.fm.version ?? 1);
    }
    if (f.fm.version < 1) f.fm.version = 1;
    const sameText = old && old.path === f.path && bodyHash(old.body) === bodyHash(f.body) && JSON.stringify(stripVolatile(old.fm)) === JSON.stringify(stripVolatile({ ...f.fm, content_hash: bodyHash(f.body) }));
    if (sameText) continue;
    if (contentChanged) f.fm.updated = now();
    try {
      writeEntry(wikiDir, f.path, f.fm, f.body, validate);
    } catch (err) {
      messages.push(message(`wiki/${f.path}`, 'schema', (err as Error).message, { severity: 'error' }));
      continue;
    }
    if (old && old.path !== f.path) removeEntryFile(wikiDir, old.path);
    if (input.scanCache) {
      const st = statSync(join(wikiDir, f.path));
      cacheRows.push([f.path, { mtimeMs: st.mtimeMs, size: st.size, fm: structuredClone(f.fm), bodyHash: f.fm.content_hash }]);
    }
    written.push(f);
    result.written++;
    if (f.kind === 'concept' && f.rendered) {
      if (old) result.concepts.updated++;
      else result.concepts.created++;
    }
    input.onFile?.(`write   wiki/${f.path}${old ? ` (v${f.fm.version})` : ' (new)'}`);
  }
  for (const e of deleted) {
    if (e.humanEdited) continue;
    removeEntryFile(wikiDir, e.path);
    store.deleteEntry(e.fm.id);
    if (e.fm.kind === 'concept') result.concepts.deleted++;
    input.onFile?.(`remove  wiki/${e.path}`);
  }
  for (const e of deleted.filter((d) => d.humanEdited)) {
    messages.push(message(`wiki/${e.path}`, 'deleted-source', 'Unexpected entry for sources that are gone, expected it to be removed; kept because a person edited it', { severity: 'warning', note: 'delete it yourself or run `kb lint --heal`' }));
  }

  messages.push(...linksBrokenInEdited(input, finals, store.allDocuments().filter((d) => keepsOriginal(d.type)).map((d) => d.raw_path)));

  // --- Store: entry rows, links, summary vectors, and chunks of concept/answer bodies.
  if (input.scanCache && cacheRows.length) store.transaction(() => cacheRows.forEach(([p, row]) => input.scanCache!.put(p, row)));
  const writtenSet = new Set(written);
  const toIndex = [...finals.values()].filter((f) => {
    const row = store.getEntry(f.id);
    return !row || row.content_hash !== currentHash(f) || row.path !== f.path || writtenSet.has(f);
  });
  const vectors = toIndex.length ? await ctx.embedder.embed(toIndex.map((f) => `${f.title}\n${f.fm.aliases.join(', ')}\n${f.fm.summary}`)) : [];
  const bodyChunks = new Map<string, ReturnType<typeof chunkMarkdown>>();
  const bodyVecs = new Map<string, Float32Array[]>();
  for (const f of toIndex) {
    if (f.kind === 'source') continue;
    const chunks = chunkMarkdown(stripBacklinks(f.body), ctx.config.chunk);
    bodyChunks.set(f.id, chunks);
    bodyVecs.set(f.id, chunks.length ? await ctx.embedder.embed(chunks.map((c) => `${f.title}\n${c.text}`)) : []);
  }
  store.transaction(() => {
    toIndex.forEach((f, i) => {
      store.putEntry(
        {
          id: f.id, kind: f.kind, title: f.title, path: f.path, aliases: f.fm.aliases ?? [], summary: f.fm.summary ?? '',
          source_ref: f.fm.source_ref ?? [], content_hash: currentHash(f),
          human_edited: f.humanEdited, updated: f.fm.updated ?? now(),
        },
        [...f.links],
        vectors[i],
      );
      const chunks = bodyChunks.get(f.id);
      if (chunks) store.putChunks(f.id, null, chunks, bodyVecs.get(f.id) ?? []);
    });
    for (const e of deleted) if (!e.humanEdited) store.deleteEntry(e.fm.id);
  });

  input.onProgress?.({ phase: 'index', done: 0, total: 1 });
  copyAttachments(paths.raw, wikiDir, store.allDocuments().filter((d) => keepsOriginal(d.type)).map((d) => d.raw_path), input.rawAbs, changedDocs);
  writeIndexes(wikiDir, [...finals.values()].map((f) => ({ id: f.id, kind: f.kind, title: f.title, path: f.path, summary: f.fm.summary, source_ref: f.fm.source_ref ?? [], links: [...f.links] })));
  return result;
}

/**
 * Write an edited entry's refreshed sections: the person's body byte for byte but for kb's marked
 * sections, the frontmatter as they left it but for `backlinks`. False when that cannot be done
 * safely (the entry is then left as it is; lint reports what is out of step).
 */
function writeEditedSections(wikiDir: string, old: LoadedEntry, f: Final, validate: ReturnType<typeof entryValidator>): boolean {
  const text = old.text;
  if (!text.endsWith(old.body)) return false;
  const next = setFrontmatterKey(text.slice(0, text.length - old.body.length) + f.body, 'backlinks', f.fm.backlinks ?? []);
  if (next === undefined || next === text) return false;
  if (schemaErrors(validate, parseEntryFile(next).data).length) return false;
  writeFileAtomic(join(wikiDir, f.path), next);
  return true;
}

/**
 * Links a person wrote in an entry they edited that named an entry this run removed or renamed:
 * compile leaves their text alone, so it says so once (lint keeps reporting them).
 */
function linksBrokenInEdited(input: EmitInput, finals: Map<string, Final>, attachmentRaw: string[]): KbMessage[] {
  const keys = (p: string) => {
    const noExt = p.replace(/\.md$/i, '');
    return [linkKey(noExt), linkKey(noExt.split('/').pop() ?? noExt)];
  };
  const before = new Set(input.scan.files.flatMap(keys));
  const entryFiles = new Set<string>(input.scan.entries.map((e) => e.path));
  const after = new Set([
    ...[...finals.values()].map((f) => f.path),
    ...input.scan.files.filter((p) => !entryFiles.has(p) && !p.startsWith('attachments/')),
    ...attachmentRaw.map((p) => `attachments/${p.split('/').pop()}`),
  ].flatMap(keys));
  const out: KbMessage[] = [];
  for (const f of finals.values()) {
    if (!f.humanEdited) continue;
    const gone = new Set<string>();
    for (const l of extractWikiLinks(setSection(f.body, 'backlinks', null))) {
      const k = linkKey(l.target);
      if (k && before.has(k) && !after.has(k)) gone.add(l.target);
    }
    if (!gone.size) continue;
    const list = [...gone].map((t) => `[[${t}]]`).join(', ');
    out.push(message(`wiki/${f.path}`, 'broken-link', `Unexpected link${gone.size === 1 ? '' : 's'} to ${list}, which this compile removed or renamed, expected links to entries in the wiki; your text is left as you wrote it`, {
      severity: 'warning',
      note: 'edit the link yourself, or run `kb lint --heal` to have it fixed on a branch',
    }));
  }
  return out;
}

/** An entry kept as it is; its body is read from disk only if this run changes it. */
function keptFinal(e: LoadedEntry, path: string, links: string[]): Final {
  let body: string | undefined;
  const f = { id: e.fm.id as EntryId, kind: e.fm.kind, title: e.fm.title, path, fm: { ...e.fm }, links: new Set(links), humanEdited: e.humanEdited, rendered: false, old: e } as Final;
  Object.defineProperty(f, 'body', {
    get: () => body ?? e.body,
    set: (v: string) => {
      body = v;
      f.touched = true;
    },
    enumerable: true,
  });
  return f;
}

/** The content hash of an entry as it stands after this run. */
function currentHash(f: Final): string {
  if (f.humanEdited) return f.old?.fm.content_hash ?? '';
  if (!f.rendered && !f.touched && f.old) return f.old.fm.content_hash;
  return bodyHash(f.body);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function insertBefore(body: string, heading: string, section: string): string {
  const i = body.indexOf(`\n${heading}`);
  if (i < 0) return `${body.trimEnd()}\n\n${section}`;
  return `${body.slice(0, i).trimEnd()}\n\n${section}\n\n${body.slice(i + 1)}`;
}

function stripBacklinks(body: string): string {
  return setSection(body, 'backlinks', null).trim();
}

function stripVolatile(fm: EntryFrontmatter): Record<string, unknown> {
  const { updated: _u, ...rest } = fm;
  return rest;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim().slice(0, 3900);
}

function mergeAliases(a: string[], b: string[] | undefined): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const x of [...a, ...(b ?? [])]) {
    const k = x.toLowerCase();
    if (!x.trim() || seen.has(k)) continue;
    seen.add(k);
    out.push(x);
  }
  return out;
}

export type { WikiPath };
