import { describe, expect, it } from 'vitest';
import { type Dictionary, groupConcepts } from './concepts.js';
import { extractEntities } from './offline/entities.js';
import type { DocumentRow, EntityRow } from '../store/store.js';
import type { LoadedEntry } from '../entry/wiki.js';
import { fakeDictionary } from '../../test/fake-dictionary.js';
import { documentRow } from '../../test/document-row.js';

const doc = (path: string): DocumentRow => documentRow(path);

/** The row of a salient name a document mentions three times. */
function named(raw_path: string, surface: string): EntityRow {
  return { raw_path, key: surface.toLowerCase(), surface, aliases: [], count: 3, snippets: [], salient: true };
}

/** Entities of small documents as the compiler stores them. */
function compiled(docs: Record<string, string>): { entities: EntityRow[]; rows: DocumentRow[] } {
  const entities: EntityRow[] = [];
  for (const [path, md] of Object.entries(docs)) {
    for (const e of extractEntities(md, path))
      entities.push({
        raw_path: path,
        key: e.key,
        surface: e.surface,
        aliases: e.aliases,
        count: e.count,
        snippets: e.snippets,
        salient: e.salient,
      });
  }
  return { entities, rows: Object.keys(docs).map(doc) };
}

const dictionary = fakeDictionary;

const pages = (docs: Record<string, string>, dict?: Dictionary) => {
  const { entities, rows } = compiled(docs);
  return groupConcepts(entities, rows, 2, 100, [], dict).map((c) => [c.title, ...c.aliases]);
};
const pageOf = (all: string[][], name: string) => all.filter((p) => p.includes(name));

/** A row of one name in one document, its surface the key, with the flags given. */
function entityRow(raw_path: string, key: string, count: number, flags: Partial<EntityRow>): EntityRow {
  return { raw_path, key, surface: key, aliases: [], count, snippets: [], ...flags };
}

describe('groupConcepts: one page per idea across languages and scripts', () => {
  it('merges a Chinese term and its English name given in parentheses in another document', () => {
    const all = pages({
      'a.md': '上下文焦虑（context anxiety）会让模型提前收尾。上下文焦虑很常见。',
      'b.md': 'Context anxiety shows near the limit. Models with context anxiety stop early.',
    });
    expect(pageOf(all, '上下文焦虑')).toHaveLength(1);
    expect(pageOf(all, '上下文焦虑')[0]!.map((n) => n.toLowerCase())).toContain('context anxiety');
  });

  it('titles a page by the Chinese name the texts write more often than a longer one holding it (数据流 over 双向数据流)', () => {
    const rows = [
      entityRow('a.md', '双向数据流', 3, { aliases: ['Stream'], salient: true }),
      entityRow('a.md', '数据流', 4, { aliases: ['Stream'], salient: true }),
      entityRow('b.md', '双向数据流', 1, { aliases: ['Stream'], salient: true }),
      entityRow('b.md', '数据流', 5, { salient: true }),
    ];
    const [page] = groupConcepts(rows, [documentRow('a.md'), documentRow('b.md')], 2, 100, []);
    expect(page?.title).toBe('数据流');
  });

  it('merges Traditional and Simplified spellings of one term', () => {
    const all = pages({
      'tw.md': '所有權規則決定誰能修改。所有權規則寫在設定檔裡。',
      'cn.md': '所有权规则决定谁能修改。所有权规则写在配置文件里。',
    });
    expect(all).toHaveLength(1);
    expect(all[0]).toEqual(expect.arrayContaining(['所有權規則', '所有权规则']));
  });

  it('counts both scripts of a name together for the title: a Traditional copy does not hand it to the gloss', () => {
    const all = pages({
      'cn.md': '设计质量（design quality）决定评分。设计质量很重要。',
      'tw.md': '設計質量（design quality）決定評分。設計質量很重要。',
      'en.md': 'Design quality decides the score. Design quality matters most.',
    });
    expect(pageOf(all, '设计质量')).toHaveLength(1);
    expect(pageOf(all, '设计质量')[0]![0]).toBe('设计质量');
    expect(pageOf(all, '设计质量')[0]).toEqual(expect.arrayContaining(['設計質量']));
  });

  it("reads a word a Traditional-script work writes as Taiwan's, though it holds no Traditional character (伺服器 / 服务器)", () => {
    const row = (path: string, surface: string, key = surface) => entityRow(path, key, 3, { surface, salient: true });
    const docs = ['tw.md', 'cn.md'].map((p) => documentRow(p));
    const titles = (rows: EntityRow[]) => groupConcepts(rows, docs, 2, 100, []).map((c) => [c.title, ...c.aliases]);
    // tw.md writes its other names in Traditional characters (資料庫, 檔案): it is in Traditional script.
    const tw = [
      row('tw.md', '伺服器'),
      row('tw.md', '資料庫', '数据库'),
      row('tw.md', '檔案', '档案'),
      row('cn.md', '服务器'),
    ];
    expect(titles(tw)).toContainEqual(expect.arrayContaining(['伺服器', '服务器']));
    // A Simplified work's 向量 is its own word, not Taiwan's (for 矢量).
    const cn = [row('tw.md', '向量'), row('tw.md', '数据库'), row('cn.md', '矢量')];
    expect(titles(cn)).not.toContainEqual(expect.arrayContaining(['向量', '矢量']));
  });

  it("merges an English name with Taiwan's word for the dictionary's Mainland Chinese (server: 服务器, written 伺服器)", () => {
    const row = (path: string, surface: string, key = surface) => entityRow(path, key, 3, { surface, salient: true });
    const docs = ['tw.md', 'en.md'].map((p) => documentRow(p));
    const zhOf: Record<string, string> = { server: '服务器', windows: '窗口' };
    const dict = fakeDictionary({}, (en) => zhOf[en]);
    const titles = (rows: EntityRow[]) =>
      groupConcepts(rows, docs, 2, 100, [], dict).map((c) => [c.title, ...c.aliases]);
    const tw = [row('tw.md', '伺服器'), row('tw.md', '資料庫', '数据库'), row('tw.md', '檔案', '档案')];
    expect(titles([...tw, row('en.md', 'server')])).toContainEqual(expect.arrayContaining(['伺服器', 'server']));
    // A name always capitalised is a product's, not a plural (Windows; 視窗 is Taiwan's 窗口, a window).
    const windows = [
      ...tw,
      row('tw.md', '視窗', '视窗'),
      row('en.md', 'Windows', 'windows'),
      row('en.md', '視窗', '视窗'),
    ];
    expect(titles(windows)).not.toContainEqual(expect.arrayContaining(['視窗', 'Windows']));
  });

  it('merges a Taiwan word and the Mainland word for one thing (程式碼審查 / 代码审查)', () => {
    const all = pages({
      'tw.md': '我們討論程式碼審查。程式碼審查很重要，程式碼審查需要測試。',
      'cn.md': '我们讨论代码审查。代码审查很重要，代码审查需要测试。',
    });
    expect(pageOf(all, '代码审查')).toHaveLength(1);
    expect(pageOf(all, '代码审查')[0]).toContain('程式碼審查');
  });

  it('merges an English name with the dictionary translation of a Chinese one', () => {
    const docs = {
      'zh1.md': '知识库是个人笔记的中心。知识库由模型维护。',
      'zh2.md': '每个知识库都有索引。知识库需要定期检查。',
      'en1.md': 'A knowledge base keeps notes. The knowledge base is maintained by a model.',
      'en2.md': 'Every knowledge base needs an index. We lint the knowledge base weekly.',
    };
    expect(pages(docs)).toHaveLength(2);
    const merged = pages(
      docs,
      dictionary({}, (k) => (k === 'knowledge base' ? '知识库' : undefined)),
    );
    expect(merged).toHaveLength(1);
    expect(merged[0]).toEqual(expect.arrayContaining(['知识库', 'knowledge base']));
  });

  it('merges a Chinese compound whose dictionary words translate an English name word by word', () => {
    const docs = {
      'zh1.md': '精灵编辑器里可以画角色。精灵编辑器还有调色板。',
      'zh2.md': '新版精灵编辑器更好用。精灵编辑器支持缩放。',
      'en1.md': 'The sprite editor draws characters. The sprite editor has a palette.',
      'en2.md': 'We built a sprite editor too. Their sprite editor has layers.',
    };
    const dict = dictionary({ 精灵: ['spirit', 'fairy', 'elf', 'sprite'], 编辑器: ['editor'] });
    expect(pages(docs)).toHaveLength(2);
    const merged = pages(docs, dict);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toEqual(expect.arrayContaining(['精灵编辑器', 'sprite editor']));
  });

  it('merges a Chinese compound with a hyphenated English name, a gloss in -ing standing for its verb (重新渲染, re-render)', () => {
    const docs = {
      'zh1.md': '状态变了，组件会重新渲染。每次重新渲染都调用函数。重新渲染很快。',
      'zh2.md': '父组件重新渲染时，子组件也重新渲染。重新渲染不改变状态。',
      'en1.md': 'When state changes, the component will re-render. Each re-render calls the function.',
      'en2.md': 'A parent re-render makes children re-render too. A re-render keeps the state.',
    };
    const dict = dictionary({ 重新: ['re'], 渲染: ['rendering', 'exaggerate'] });
    expect(pages(docs).filter((p) => p.includes('重新渲染') || p.includes('re-render'))).toHaveLength(2);
    const merged = pages(docs, dict).filter((p) => p.includes('重新渲染'));
    expect(merged).toHaveLength(1);
    expect(merged[0]).toEqual(expect.arrayContaining(['重新渲染', 're-render']));
  });

  it('merges a name of an English word and a Chinese noun with the English name it translates (tree 物件, tree object)', () => {
    const docs = {
      'tw1.md': '接下來看 tree 物件。每個 tree 物件指向檔案，tree 物件也指向子目錄。',
      'tw2.md': '建立 tree 物件之後，Git 會把 tree 物件寫入資料庫。',
      'en1.md': 'After reading a tree object, Git lists the tree object in its log.',
      'en2.md': 'After writing a tree object, Git stores the tree object in its database.',
    };
    const dict = dictionary({ 物件: ['object', 'article'] });
    expect(pages(docs)).toHaveLength(2);
    const merged = pages(docs, dict);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toEqual(expect.arrayContaining(['tree 物件', 'tree object']));
    // The English word must be the same word: "blob 物件" is no "tree object".
    const other = pages(
      {
        ...docs,
        'tw1.md': docs['tw1.md'].replaceAll('tree', 'blob'),
        'tw2.md': docs['tw2.md'].replaceAll('tree', 'blob'),
      },
      dict,
    );
    expect(other).toHaveLength(2);
  });

  // Rows as a text names them: each name written as it is, salient, in two documents.
  const pagesOfRows = (rows: [string, string][]) => {
    const entities = rows.map(([path, surface]) => ({
      ...entityRow(path, surface.toLowerCase(), 3, { salient: true }),
      surface,
    }));
    const docs = [...new Set(rows.map(([p]) => p))].map(doc);
    return groupConcepts(entities, docs, 2, 100, []).map((c) => [c.title, ...c.aliases]);
  };

  it('merges a name and the name with its kind after it (defer, the defer statement), the name the title', () => {
    const all = pagesOfRows([
      ['a.md', 'defer statement'],
      ['b.md', 'defer'],
      ['b.md', 'defer statement'],
      ['a.md', 'defer'],
      ['c.md', 'HTTP protocol'],
      ['d.md', 'HTTP protocol'],
      ['c.md', 'HTTP'],
      ['d.md', 'HTTP'],
    ]);
    expect(pageOf(all, 'defer statement')).toHaveLength(1);
    expect(pageOf(all, 'defer statement')[0]).toContain('defer');
    expect(pageOf(all, 'HTTP protocol')[0]![0]).toBe('HTTP');
  });

  it('merges an activity and the system that does it, never a word and a system named by it (file system)', () => {
    const all = pagesOfRows([
      ['a.md', 'content management system'],
      ['b.md', 'content management'],
      ['b.md', 'content management system'],
      ['a.md', 'content management'],
      ['c.md', 'file system'],
      ['d.md', 'file system'],
      ['c.md', 'file'],
      ['d.md', 'file'],
    ]);
    expect(pageOf(all, 'content management system')[0]).toContain('content management');
    expect(pageOf(all, 'file system')[0]).not.toContain('file');
  });

  it('keeps apart a name and a phrase naming what belongs to it or a narrower kind (Git repository, remote branch)', () => {
    const all = pagesOfRows([
      ['a.md', 'Git'],
      ['b.md', 'Git'],
      ['a.md', 'Git repository'],
      ['b.md', 'Git repository'],
      ['a.md', 'remote'],
      ['b.md', 'remote'],
      ['a.md', 'remote branch'],
      ['b.md', 'remote branch'],
    ]);
    expect(pageOf(all, 'Git repository')[0]).not.toContain('Git');
    expect(pageOf(all, 'remote branch')[0]).not.toContain('remote');
  });

  it('reads an adjective the dictionary gives for a Chinese word as its noun too (焦虑: anxious, anxiety)', () => {
    const docs = {
      'zh1.md': '模型会出现上下文焦虑，提前收尾。上下文焦虑很常见。',
      'zh2.md': '上下文焦虑在长任务里更明显。新模型的上下文焦虑少了。',
      'en1.md': 'Some models show context anxiety near the limit. Context anxiety makes them stop early.',
      'en2.md': 'Context anxiety was gone in the new model. We measured context anxiety twice.',
    };
    const dict = dictionary({ 上下文: ['context'], 焦虑: ['anxious', 'worried', 'apprehensive'] });
    expect(pages(docs)).toHaveLength(2);
    const merged = pages(docs, dict);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.map((n) => n.toLowerCase())).toEqual(expect.arrayContaining(['上下文焦虑', 'context anxiety']));
  });

  it('takes no everyday word a text puts beside a name as a gloss for its translation', () => {
    const docs = {
      'a.md': '本地变更立即上传到 Firestore（云端）。Firestore 的读写很快，Firestore 也很稳。',
      'b.md': 'We keep the documents in Firestore. The app syncs Firestore across devices.',
      'c.md': 'Pipeline（流水线）模式按顺序执行。Pipeline 模式有检查点。',
      'd.md': 'The Pipeline pattern runs steps in order. A Pipeline stops at a gate.',
    };
    const dict = dictionary({ 云端: ['clouds', 'cloud'], 流水线: ['pipeline', 'assembly line'] });
    const all = pages(docs, dict);
    expect(pageOf(all, 'Firestore')[0]).not.toContain('云端');
    expect(pageOf(all, 'Pipeline')[0]).toContain('流水线');
    // Without the dictionary nothing tells the gloss from a translation.
    expect(pageOf(pages(docs), 'Firestore')[0]).toContain('云端');
  });

  it('keeps the English a translator gives a Chinese term, even in a sense the dictionary lacks', () => {
    const docs = {
      'a.md': '储藏（Stashing）会保存工作目录。储藏可以多次应用，储藏也能删除。',
      'b.md': '你可以随时储藏（Stashing）改动。储藏列表会显示所有的储藏。',
    };
    const dict = dictionary({ 储藏: ['store', 'deposit'] });
    expect(pageOf(pages(docs, dict), '储藏')[0]).toContain('Stashing');
  });

  it('ties nothing through a Chinese gloss given to many names (a link to a translation beside each)', () => {
    const docs = {
      'a.md': '接口用来描述形状。接口很常用。参考 Interfaces（中文版）。',
      'b.md': '接口可以继承。接口也能描述函数。参考 Interfaces（中文版）。',
      'c.md': '泛型让函数更通用。泛型很常用。参考 Generics（中文版）。',
      'd.md': '泛型也能约束。泛型可以有默认值。参考 Generics（中文版）。',
      'e.md': '元组合并了不同类型。元组很常用。参考 Tuples（中文版）。',
      'f.md': '元组可以越界。元组有固定长度。参考 Tuples（中文版）。',
    };
    const all = pages(docs);
    expect(all.filter((p) => p.includes('中文版'))).toEqual([]);
    expect(pageOf(all, 'Interfaces')).not.toEqual(pageOf(all, 'Generics'));
    // Given to two names, a gloss may still be their shared translation (向量数据库: vector database, vector store).
    const two = pages(Object.fromEntries(Object.entries(docs).slice(0, 4)));
    expect(two.filter((p) => p.includes('中文版'))).toHaveLength(1);
  });

  it('names a Chinese word glossed with several English words by those its dictionary senses hold', () => {
    const docs = {
      'tw.md': '將提交歸併(squash)成一個。當 Git 歸併(merge)時會選擇策略。歸併很常用，歸併也很快。',
      'en1.md': '## Merge\n\nA merge joins two branches. After the merge, the branches share history. A merge is fast.',
      'en2.md': '## Merge\n\nGit can merge branches. A merge may stop on a conflict. Undo a merge with reset.',
    };
    const all = pages(docs, dictionary({ 歸併: ['add', 'put together', 'merge'] }));
    expect(pageOf(all, '歸併')).toHaveLength(1);
    expect(pageOf(all, '歸併')[0]!.map((n) => n.toLowerCase())).toContain('merge');
    expect(pageOf(all, '歸併')[0]).not.toContain('squash');
    // Glossed once, or by words the dictionary does not hold either, every gloss stays.
    const none = pages(docs, dictionary({ 歸併: ['add'] }));
    expect(pageOf(none, '歸併')[0]).toContain('squash');
  });

  it('merges a name with the Chinese compound that translates, word by word, the name a text glosses it with', () => {
    const docs = {
      'en1.md':
        'Zettelkasten is German for "slip box" or "card box". Luhmann kept a Zettelkasten for decades, and his Zettelkasten held many cards.',
      'en2.md': 'My Zettelkasten grows daily. A Zettelkasten links notes by hand.',
      'zh1.md': '卢曼的卡片盒里有很多卡片。卡片盒让笔记互相连接。',
      'zh2.md': '每个卡片盒都不同。卡片盒是一张网。',
    };
    const dict = dictionary({ 卡片: ['card'], 盒: ['box', 'case'] });
    const merged = pageOf(pages(docs, dict), 'Zettelkasten');
    expect(merged).toHaveLength(1);
    expect(merged[0]).toEqual(expect.arrayContaining(['Zettelkasten', '卡片盒', 'card box', 'slip box']));
    // Without the gloss nothing says the two are one idea.
    const plain = {
      ...docs,
      'en1.md': 'Luhmann kept a Zettelkasten for decades, and his Zettelkasten held many cards.',
    };
    expect(pageOf(pages(plain, dict), 'Zettelkasten')[0]).not.toContain('卡片盒');
  });

  it('lists no alias that is another name of the page with a verb of the sentence in front', () => {
    const docs = {
      'zh1.md': '为每篇来源写一页摘要，并用维基链接（wikilink）把它们连起来。',
      'zh2.md': 'Obsidian 里的维基链接（wikilink）和反向链接是卢曼手写编号的数字版。维基链接很方便。',
      'en1.md': 'A wikilink points at a note by name. Every wikilink resolves by title.',
    };
    const page = pageOf(pages(docs), 'wikilink')[0]!;
    expect(page).toContain('维基链接');
    expect(page).not.toContain('并用维基链接');
  });

  it('never merges a compound with an English name that translates only part of it', () => {
    const docs = {
      'zh1.md': '音乐制作程序用来录音。音乐制作程序很贵。',
      'zh2.md': '这个音乐制作程序能混音。音乐制作程序在浏览器里运行。',
      'en1.md': 'Music production takes years. Good music production needs ears.',
      'en2.md': 'We teach music production online. Music production is a craft.',
    };
    const dict = dictionary({ 音乐: ['music'], 制作: ['make', 'production'], 程序: ['procedure', 'program'] });
    const all = pages(docs, dict);
    expect(pageOf(all, '音乐制作程序')).toHaveLength(1);
    expect(pageOf(all, '音乐制作程序')[0]!.map((n) => n.toLowerCase())).not.toContain('music production');
  });

  it('merges a role name with the same role followed by 智能体 or "agent", and nothing else', () => {
    const row = named;
    const entities = [
      row('a.md', '评估器'),
      row('b.md', '评估器'),
      row('a.md', '评估器智能体'),
      row('b.md', '评估器智能体'),
      row('a.md', 'planner agent'),
      row('b.md', 'planner'),
      row('a.md', '音乐制作'),
      row('b.md', '音乐制作'),
      row('a.md', '音乐制作程序'),
      row('b.md', '音乐制作程序'),
    ];
    const all = groupConcepts(entities, ['a.md', 'b.md'].map(doc), 2, 100, []).map((c) => [c.title, ...c.aliases]);
    expect(pageOf(all, '评估器')).toHaveLength(1);
    expect(pageOf(all, '评估器')[0]).toContain('评估器智能体');
    expect(pageOf(all, 'planner')[0]).toContain('planner agent');
    expect(pageOf(all, '音乐制作')[0]).not.toContain('音乐制作程序');
  });

  it('merges a product with its vendor-prefixed name', () => {
    const all = pages({
      'a.md': 'We host the app on Microsoft Azure. Microsoft Azure bills by the hour.',
      'b.md': 'Prices for Azure differ by region. We moved to Azure last year.',
    });
    expect(pageOf(all, 'Azure')).toHaveLength(1);
    expect(pageOf(all, 'Azure')[0]).toContain('Microsoft Azure');
  });

  it('never merges by a short name inside a longer one', () => {
    const all = pages({
      'a.md':
        'The vector database stores embeddings. A vector database is fast. Each database has a schema, and the database grows.',
      'b.md': 'Pick a vector database first. The vector database decides recall. The database is backed up nightly.',
    });
    const vdb = pageOf(all, 'vector database');
    expect(vdb).toHaveLength(1);
    expect(vdb[0]).not.toContain('database');
  });

  it('does not merge two names that share an abbreviation', () => {
    const row = (raw_path: string, surface: string, aliases: string[]): EntityRow => ({
      raw_path,
      key: surface.toLowerCase(),
      surface,
      aliases,
      count: 3,
      snippets: [],
      salient: true,
    });
    const entities = [
      row('a.md', 'Identity Provider', ['IdP']),
      row('b.md', 'Interface Description Package', ['IdP']),
      row('c.md', 'Identity Provider', []),
      row('d.md', 'Interface Description Package', []),
      row('e.md', 'IdP', []),
    ];
    const all = groupConcepts(entities, ['a.md', 'b.md', 'c.md', 'd.md', 'e.md'].map(doc), 2, 100, []).map((c) => [
      c.title,
      ...c.aliases,
    ]);
    expect(all.filter((p) => p.includes('Identity Provider'))).toHaveLength(1);
    expect(all.find((p) => p.includes('Identity Provider'))).not.toContain('Interface Description Package');
  });
});

describe('groupConcepts: a work saved twice counts once', () => {
  const text = 'Context anxiety shows near the limit. Models with context anxiety stop early.';
  /** Documents by raw path: [title, source entry] (copies of one work share an entry: compile/works.ts). */
  const rowsOf = (docs: Record<string, [string, string]>) => {
    const entities: EntityRow[] = [];
    for (const [path, [title]] of Object.entries(docs)) {
      for (const e of extractEntities(text, title))
        entities.push({
          raw_path: path,
          key: e.key,
          surface: e.surface,
          aliases: e.aliases,
          count: e.count,
          snippets: e.snippets,
          salient: e.salient,
        });
    }
    const rows = Object.entries(docs).map(([p, [t, id]]) => ({ ...doc(p), title: t, entry_id: id }));
    return groupConcepts(entities, rows, 2, 100, []);
  };
  const titles = (cs: ReturnType<typeof rowsOf>) => cs.map((c) => c.title.toLowerCase());
  const t = 'Harness Design for Long-Running Application Development';

  it('does not make a concept from one post found in two feed exports', () => {
    expect(
      titles(rowsOf({ 'feed-a.txt#harness': [t, 'source/h'], 'feed-b.txt#harness': [t, 'source/h'] })),
    ).not.toContain('context anxiety');
    const two = rowsOf({
      'feed-a.txt#harness': [t, 'source/h'],
      'other.md': ['Why long agent runs stop early', 'source/o'],
    });
    expect(titles(two)).toContain('context anxiety');
  });

  it('cites a work saved twice once, by its first copy', () => {
    const three = rowsOf({
      'feed-b.txt#harness': [t, 'source/h'],
      'feed-a.txt#harness': [t, 'source/h'],
      'other.md': ['Why long agent runs stop early', 'source/o'],
    });
    const c = three.find((x) => x.title.toLowerCase() === 'context anxiety')!;
    expect(c.mentions.map((m) => m.rawPath).sort()).toEqual(['feed-a.txt#harness', 'other.md']);
  });

  it('counts documents with one title but their own entries (different texts) as different works', () => {
    expect(
      titles(rowsOf({ 'a/notes.md': ['Notes', 'source/notes'], 'b/notes.md': ['Notes', 'source/notes-2'] })),
    ).toContain('context anxiety');
    expect(titles(rowsOf({ 'a.txt#h': [t, 'source/h'], 'b.txt#h': [t, 'source/h-2'] }))).toContain('context anxiety');
  });
});

describe('groupConcepts: abbreviations that are no concept', () => {
  it('makes no page for a word in capitals or an abbreviation used in passing, but does for one the sources use', () => {
    const { entities, rows } = compiled({
      'a.md': 'Rows come back with ORDER BY score. Files arrive as PDF. The agent uses ADK tools; ADK runs them.',
      'b.md': 'Sort the hits with ORDER BY rank. A PDF is parsed first. ADK skills load on demand, as ADK says.',
      'c.md': 'Retrieval-Augmented Generation (RAG) answers from notes. RAG cites them; RAG is cheap.',
      'd.md': 'A RAG system retrieves first. The RAG answer quotes notes.',
    });
    const titles = groupConcepts(entities, rows, 2, 100, []).map((c) => c.title);
    expect(titles).not.toContain('ORDER');
    expect(titles).not.toContain('PDF');
    expect(titles).toContain('ADK');
    expect(titles).toContain('Retrieval-Augmented Generation');
  });
});

describe('groupConcepts: versions of one work count once', () => {
  const row = (raw_path: string, surface: string, count = 2): EntityRow => ({
    raw_path,
    key: surface.toLowerCase(),
    surface,
    aliases: [],
    count,
    snippets: [],
    salient: false,
  });
  const docOf = (path: string, lang: string, title = `Doc ${path}`): DocumentRow => ({ ...doc(path), lang, title });
  /** Names an article and its translation share (the same things, by the same names). */
  const shared = ['RetroForge', 'Playwright MCP', 'FastAPI', 'DAW', 'Claude Opus', 'Claude Sonnet', 'React', 'Vite'];
  const others = ['d.md', 'e.md', 'f.md'].flatMap((p, i) => [row(p, `Topic ${i}`, 3), row(p, `Other ${i}`, 3)]);

  it('gives no page to a name only an article and its translations share, unless they keep coming back to it', () => {
    const entities = [
      ...shared.flatMap((n) => [row('en.md', n), row('zh.md', n)]),
      row('en.md', 'mixer'),
      row('zh.md', 'mixer'),
      row('en.md', 'context reset', 5),
      row('zh.md', 'context reset', 5),
      ...others,
    ];
    const docs = [docOf('en.md', 'en'), docOf('zh.md', 'zh'), ...['d.md', 'e.md', 'f.md'].map((p) => docOf(p, 'en'))];
    const titles = groupConcepts(entities, docs, 2, 100, []).map((c) => c.title);
    expect(titles).not.toContain('mixer');
    expect(titles).not.toContain('FastAPI');
    expect(titles).toContain('context reset');
    // Two notes in one language that share as many names, each with names of its own, are two
    // works (10 of 14 names): each shared name gets its page.
    const own = ['a', 'b', 'c', 'd'].flatMap((x) => [row('en.md', `Own ${x}`), row('zh.md', `Mine ${x}`)]);
    const same = [docOf('en.md', 'en'), docOf('zh.md', 'en'), ...docs.slice(2)];
    const two = groupConcepts([...entities, ...own], same, 2, 100, []).map((c) => c.title);
    expect(two).toEqual(expect.arrayContaining(['mixer', 'FastAPI']));
  });

  it('keeps two issues of one template apart when they link to different things', () => {
    // Issues of a newsletter share their standing names but not their links: two works, so a name
    // both discuss is shared by two works; an edited copy of one note keeps its links: one work.
    const names = [...shared, 'mixer'];
    const entities = [...names.flatMap((n) => [row('a.md', n), row('b.md', n)]), ...others];
    const marks = (xs: string[]) => xs.join(' ');
    const issue = (path: string, links: string[]): DocumentRow => ({ ...docOf(path, 'en'), marks: marks(links) });
    const rest = ['d.md', 'e.md', 'f.md'].map((p) => docOf(p, 'en'));
    const apart = [
      issue('a.md', ['l1', 'l2', 'l3', 'l4', 'l5', 'l6']),
      issue('b.md', ['l1', 'm2', 'm3', 'm4', 'm5', 'm6']),
    ];
    expect(groupConcepts(entities, [...apart, ...rest], 2, 100, []).map((c) => c.title)).toContain('mixer');
    const copies = [
      issue('a.md', ['l1', 'l2', 'l3', 'l4', 'l5', 'l6']),
      issue('b.md', ['l1', 'l2', 'l3', 'l4', 'l5', 'm6']),
    ];
    expect(groupConcepts(entities, [...copies, ...rest], 2, 100, []).map((c) => c.title)).not.toContain('mixer');
  });

  it('joins the names of headings a translation puts where its original has them', () => {
    const outline = (xs: string[]) => xs.map((x) => `2 ${x}`).join('\n');
    const names = (p: string, n: string) => ({ ...row(p, n, 5), salient: true });
    const entities = [
      ...shared.flatMap((n) => [row('en.md', n), row('zh.md', n)]),
      names('en.md', 'topic branch'),
      names('zh.md', '特性分支'),
      ...others,
    ];
    const rest = ['d.md', 'e.md', 'f.md'].map((p) => docOf(p, 'en'));
    const docs = (zhOutline: string) => [
      { ...docOf('en.md', 'en'), headings: outline(['Long-Running Branches', 'Topic Branches']) },
      { ...docOf('zh.md', 'zh'), headings: zhOutline },
      ...rest,
    ];
    const pages = (zhOutline: string) =>
      groupConcepts(entities, docs(zhOutline), 2, 100, []).map((c) => [c.title, ...c.aliases]);
    expect(pageOf(pages(outline(['长期分支', '特性分支'])), 'topic branch')[0]).toContain('特性分支');
    // Outlines that differ (a section the translation leaves out) pair nothing.
    expect(pageOf(pages(outline(['特性分支'])), 'topic branch')[0]).not.toContain('特性分支');
  });

  it('joins the names a translation uses in the sections where its original uses its own', () => {
    const outline = ['One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight'].map((x) => `2 ${x}`).join('\n');
    const placed = (p: string, n: string, sections: number[], count = 5) => ({
      ...row(p, n, count),
      salient: true,
      sections: sections.join(' '),
    });
    const entities = (zhSections: number[], zhCount = 5) => [
      ...shared.flatMap((n) => [row('en.md', n), row('zh.md', n)]),
      placed('en.md', 'loose object', [2, 5, 7]),
      placed('zh.md', '松散对象', zhSections, zhCount),
      placed('en.md', 'packfile', [1, 3, 4]),
      placed('zh.md', '打包文件', [1, 3, 4]),
      ...others,
    ];
    const docs = [
      { ...docOf('en.md', 'en'), headings: outline },
      { ...docOf('zh.md', 'zh'), headings: outline },
      ...['d.md', 'e.md', 'f.md'].map((p) => docOf(p, 'en')),
    ];
    const pages = (rows: EntityRow[]) => groupConcepts(rows, docs, 2, 100, []).map((c) => [c.title, ...c.aliases]);
    expect(pageOf(pages(entities([2, 5, 7])), 'loose object')[0]).toContain('松散对象');
    expect(pageOf(pages(entities([2, 5, 7])), 'packfile')[0]).toContain('打包文件');
    // Other sections, or a name used far less often, are no translation of it.
    expect(pageOf(pages(entities([0, 4, 6])), 'loose object')[0]).not.toContain('松散对象');
    expect(pageOf(pages(entities([2, 5, 7], 1)), 'loose object')[0] ?? []).not.toContain('松散对象');
  });

  it('joins the Mainland and Taiwan words a Simplified and a Traditional version use in the same sections', () => {
    const outline = ['One', 'Two', 'Three', 'Four', 'Five', 'Six'].map((x) => `2 ${x}`).join('\n');
    const placed = (p: string, n: string, sections: number[]) => ({
      ...row(p, n, 5),
      salient: true,
      sections: sections.join(' '),
    });
    // Shared names in both scripts: versions of one work (two texts in Chinese, so no marks needed).
    const common = ['RetroForge', 'Playwright MCP', 'FastAPI', 'DAW', 'Claude Opus', 'Claude Sonnet', '組件', '狀態'];
    const entities = [
      ...common.flatMap((n) => [row('tw.md', n), row('zh.md', n)]),
      placed('tw.md', '伺服器', [1, 3, 5]),
      placed('zh.md', '服务器', [1, 3, 5]),
      placed('tw.md', '運算子', [0, 2, 4]),
      placed('zh.md', '运算符', [0, 2, 4]),
      ...others,
    ];
    const docs = [
      { ...docOf('tw.md', 'zh'), headings: outline },
      { ...docOf('zh.md', 'zh'), headings: outline },
      ...['d.md', 'e.md', 'f.md'].map((p) => docOf(p, 'en')),
    ];
    const pages = groupConcepts(entities, docs, 2, 100, []).map((c) => [c.title, ...c.aliases]);
    expect(pageOf(pages, '服务器')[0]).toContain('伺服器');
    expect(pageOf(pages, '运算符')[0]).toContain('運算子');
    expect(pageOf(pages, '服务器')[0]).not.toContain('运算符');
  });

  it('does not count a name that works write only in the same standing sentence', () => {
    const standing = 'Every week we highlight some tasks from the Rust community for you to pick.';
    const inTemplate = (p: string): EntityRow => ({ ...row(p, 'Rust community'), snippets: [standing] });
    const docs = ['a.md', 'b.md', 'c.md', 'd.md'].map((p) => docOf(p, 'en'));
    const template = ['a.md', 'b.md', 'c.md'].map(inTemplate);
    const own = ['a.md', 'b.md', 'c.md', 'd.md'].flatMap((p, i) => [row(p, `Topic ${i}`, 3)]);
    expect(groupConcepts([...template, ...own], docs, 2, 100, []).map((c) => c.title)).not.toContain('Rust community');
    // Two works that also say something of their own about it give it its page.
    const said = ['c.md', 'd.md'].map((p) => ({
      ...row(p, 'Rust community'),
      snippets: [`The Rust community in ${p} met.`],
    }));
    const titles = groupConcepts([...template.slice(0, 2), ...said, ...own], docs, 2, 100, []).map((c) => c.title);
    expect(titles).toContain('Rust community');
  });

  it('does not count a name a work also puts in a heading when every sentence naming it is standing', () => {
    // "News from the project team" heads a section of every issue: the heading is the template's too.
    const standing = 'If you lead a project team looking for contributors, submit tasks here.';
    const docs = ['a.md', 'b.md', 'c.md', 'd.md', 'e.md'].map((p) => docOf(p, 'en'));
    const template = ['a.md', 'b.md', 'c.md'].map((p, i) => ({
      ...row(p, 'project team'),
      snippets: [standing],
      ...(i === 0 ? { salient: true, count: 3 } : {}),
    }));
    const own = ['a.md', 'b.md', 'c.md', 'd.md', 'e.md'].flatMap((p, i) => [row(p, `Topic ${i}`, 3)]);
    expect(groupConcepts([...template, ...own], docs, 2, 100, []).map((c) => c.title)).not.toContain('project team');
  });

  it('keeps a name the versions of a work carry in their title', () => {
    const entities = [
      ...shared.flatMap((n) => [row('en.md', n), row('zh.md', n)]),
      row('en.md', 'ADK', 3),
      row('zh.md', 'ADK', 3),
      ...others,
    ];
    const docs = [
      docOf('en.md', 'en', 'Skill patterns every ADK developer should know'),
      docOf('zh.md', 'zh', '每个ADK开发者都该知道的设计模式'),
      ...['d.md', 'e.md', 'f.md'].map((p) => docOf(p, 'en')),
    ];
    expect(groupConcepts(entities, docs, 2, 100, []).map((c) => c.title)).toContain('ADK');
  });
});

describe('aliases an existing page has', () => {
  const row = named;
  const page = (humanEdited: boolean, compiledBy = 'offline-v4'): LoadedEntry =>
    ({
      path: 'concepts/Firestore.md',
      fm: {
        id: 'concept/firestore',
        kind: 'concept',
        title: 'Firestore',
        aliases: ['云端'],
        compiled_by: compiledBy,
      },
      humanEdited,
    }) as unknown as LoadedEntry;
  const entities = [row('a.md', 'Firestore'), row('b.md', 'Firestore'), row('a.md', '云端'), row('b.md', '云端')];

  it('drops the offline compiler’s alias that the sources no longer give (an older kb’s mistake), keeps a person’s', () => {
    const docs = ['a.md', 'b.md'].map(doc);
    const unedited = groupConcepts(entities, docs, 2, 100, [page(false)]).map((c) => [c.title, ...c.aliases]);
    expect(unedited.find((p) => p[0] === 'Firestore')).toEqual(['Firestore']);
    expect(unedited.some((p) => p[0] === '云端')).toBe(true);
    const edited = groupConcepts(entities, docs, 2, 100, [page(true)]).map((c) => [c.title, ...c.aliases]);
    expect(edited.find((p) => p[0] === 'Firestore')).toEqual(['Firestore', '云端']);
    // A model's alias stays too: kb does not make it again from the sources.
    const model = groupConcepts(entities, docs, 2, 100, [page(false, 'claude-sonnet-4-5')]).map((c) => [
      c.title,
      ...c.aliases,
    ]);
    expect(model.find((p) => p[0] === 'Firestore')).toEqual(['Firestore', '云端']);
  });
});

describe('groupConcepts: a text and its translation', () => {
  const row = (raw_path: string, key: string, count: number, subject = false) =>
    entityRow(raw_path, key, count, subject ? { salient: true, subject: true } : { salient: true });
  const docRow = (path: string, lang: string, marks: string): DocumentRow => ({ ...doc(path), lang, marks });
  // The same code and links in both (what a translation keeps as written), none in the third.
  const shared = 'a1 b2 c3 d4 e5 f6 g7 h8';
  const docs = [
    docRow('en/branching.md', 'en', shared),
    docRow('zh/branching.md', 'zh', shared),
    docRow('en/remotes.md', 'en', 'x1 x2 x3 x4 x5 x6'),
    docRow('en/other.md', 'en', 'y1 y2'),
    docRow('zh/other.md', 'zh', 'z1 z2'),
  ];
  const dict = dictionary({ 分支: ['branch'] });

  it('joins the subjects of a text and its translation, found by the code and links they share', () => {
    const found = [
      row('en/branching.md', 'branching', 12, true),
      row('zh/branching.md', '分支', 30, true),
      row('en/remotes.md', 'remote', 5),
      row('en/other.md', 'remote', 3),
    ];
    const all = groupConcepts(found, docs, 2, 100, [], dict).map((c) => [c.title, ...c.aliases]);
    expect(pageOf(all, '分支')).toHaveLength(1);
    expect(pageOf(all, '分支')[0]).toContain('branching');
  });

  it('joins the words both versions use often that the dictionary gives as each other’s translation', () => {
    const found = [
      row('en/branching.md', 'branch', 9),
      row('zh/branching.md', '分支', 30),
      row('en/other.md', 'branch', 2),
    ];
    const all = groupConcepts(found, docs, 2, 100, [], dict).map((c) => [c.title, ...c.aliases]);
    expect(pageOf(all, '分支')[0]).toContain('branch');
  });

  it('pairs a Chinese word with one English word in all: the one its works pair it with most', () => {
    // 样式 is "style" in a text on styling and "type" in a text on types: pairing both would put
    // style and type on one page.
    const two = [
      ...docs,
      docRow('en/types.md', 'en', 't1 t2 t3 t4 t5 t6 t7 t8'),
      docRow('zh/types.md', 'zh', 't1 t2 t3 t4 t5 t6 t7 t8'),
    ];
    const found = [
      row('en/branching.md', 'style', 20),
      row('zh/branching.md', '样式', 30),
      row('en/types.md', 'type', 12),
      row('zh/types.md', '样式', 5),
      row('en/other.md', 'style', 3),
      row('en/remotes.md', 'type', 3),
    ];
    const senses = dictionary({ 样式: ['type', 'style'] });
    const all = groupConcepts(found, two, 2, 100, [], senses).map((c) => [c.title, ...c.aliases]);
    expect(pageOf(all, '样式')[0]).toContain('style');
    expect(pageOf(all, '样式')[0]).not.toContain('type');
  });

  it('joins no subjects apart when the other version names one of them too', () => {
    // An article on indexes and keyword search and its Chinese notes 关键词检索笔记: the English names
    // keyword search as well, and 关键词检索 is its translation, not a translation of "indexes".
    const found = [
      row('en/branching.md', 'indexes', 12, true),
      row('en/branching.md', 'keyword search', 3),
      { ...row('zh/branching.md', '关键词检索', 9, true), aliases: ['keyword search'] },
      row('en/other.md', 'indexes', 3),
      row('en/remotes.md', 'keyword search', 3),
    ];
    const all = groupConcepts(found, docs, 2, 100, [], dict).map((c) => [c.title, ...c.aliases]);
    expect(pageOf(all, '关键词检索')[0]).toContain('keyword search');
    expect(pageOf(all, '关键词检索')[0]).not.toContain('indexes');
  });

  it('pairs no subjects apart when the Chinese one translates another word of the English title', () => {
    // "Skill Design Patterns Every Developer Should Know" and 每个开发者都该知道的技能设计模式: the Chinese
    // title's subject 开发者 is the English title's "Developer", not its subject, Patterns.
    const titled = docs.map((d) =>
      d.raw_path === 'en/branching.md'
        ? { ...d, title: 'Skill Design Patterns Every Developer Should Know' }
        : d.raw_path === 'zh/branching.md'
          ? { ...d, title: '每个开发者都该知道的技能设计模式' }
          : d,
    );
    const found = [
      row('en/branching.md', 'pattern', 12, true),
      row('zh/branching.md', '开发者', 9, true),
      row('en/other.md', 'pattern', 3),
    ];
    const withDeveloper = dictionary({ 分支: ['branch'], 开发者: ['developer'] });
    const all = groupConcepts(found, titled, 2, 100, [], withDeveloper).map((c) => [c.title, ...c.aliases]);
    expect(pageOf(all, 'pattern')[0]).not.toContain('开发者');
    // Nor is 开发者 the work's subject, to have a page of its own for it.
    expect(pageOf(all, '开发者')).toEqual([]);
    // Without the dictionary's word for it, the two subjects are joined as before.
    const unknown = groupConcepts(found, titled, 2, 100, [], dict).map((c) => [c.title, ...c.aliases]);
    expect(pageOf(unknown, 'pattern')[0]).toContain('开发者');
  });

  it('pairs nothing across texts that share no code or links, whatever their subjects', () => {
    const found = [
      row('en/other.md', 'branching', 12, true),
      row('zh/other.md', '分支', 30, true),
      row('en/remotes.md', 'branching', 3),
      row('en/branching.md', '分支', 3),
    ];
    const all = groupConcepts(found, docs, 2, 100, [], dict).map((c) => [c.title, ...c.aliases]);
    expect(pageOf(all, '分支')[0]).not.toContain('branching');
  });

  it('joins no subject of a second text in the language of a version that names the work’s subject', () => {
    // Two English notes that share most names, and a Chinese translation of one: one "work" by the
    // names and marks they share, yet the English note about retrieval translates nothing.
    const marks = 'm1 m2 m3 m4 m5 m6 m7 m8';
    const three = [
      docRow('en/zk.md', 'en', marks),
      docRow('zh/zk.md', 'zh', marks),
      docRow('en/log.md', 'en', ''),
      docRow('en/a.md', 'en', ''),
      docRow('en/b.md', 'en', ''),
    ];
    const names = ['index', 'note', 'card', 'link', 'tag', 'folder', 'archive', 'inbox', 'outline'];
    const found = [
      row('en/zk.md', 'zettelkasten', 9, true),
      { ...row('zh/zk.md', '卡片盒', 9, true), aliases: ['zettelkasten'] },
      row('en/log.md', 'retrieval', 5, true),
      ...names.flatMap((n) => [row('en/zk.md', n, 2), row('en/log.md', n, 2)]),
    ];
    const all = groupConcepts(found, three, 2, 100, [], dict).map((c) => [c.title, ...c.aliases]);
    expect(pageOf(all, 'zettelkasten')).toHaveLength(1);
    expect(pageOf(all, 'zettelkasten')[0]).not.toContain('retrieval');
  });
});

describe('groupConcepts: everyday words', () => {
  const row = (raw_path: string, key: string, count: number, weak = false) =>
    entityRow(raw_path, key, count, weak ? { weak: true } : { salient: true });
  const docRow = (path: string, lang: string, marks: string): DocumentRow => ({ ...doc(path), lang, marks });
  const shared = 'a1 b2 c3 d4 e5 f6 g7 h8';
  const docs = [
    docRow('en/commits.md', 'en', shared),
    docRow('zh/commits.md', 'zh', shared),
    docRow('en/log.md', 'en', ''),
    docRow('zh/log.md', 'zh', ''),
  ];

  it('joins an everyday word to the one concept the dictionary ties it to, as an alias and a mention', () => {
    const dict = dictionary({ 快照: ['snapshot'] });
    const found = [
      row('en/commits.md', 'snapshot', 9),
      row('en/log.md', 'snapshot', 4),
      // Each version names the tool it is about: the versions of one work share names, not only marks.
      row('en/commits.md', 'Git', 9),
      row('zh/commits.md', 'Git', 9),
      row('zh/commits.md', '快照', 9, true),
      row('zh/log.md', '快照', 5, true),
    ];
    const page = groupConcepts(found, docs, 2, 100, [], dict).find((c) => c.title === 'snapshot');
    expect(page?.aliases).toContain('快照');
    expect(page?.mentions.map((m) => m.rawPath).sort()).toEqual(docs.map((d) => d.raw_path).sort());
  });

  it('ties no compound to one everyday word of its gloss, nor words used far more often in one version', () => {
    const dict = dictionary({ 知识库: ['knowledge', 'base'], 快照: ['snapshot'] });
    const found = [
      row('en/commits.md', 'Git', 9),
      row('zh/commits.md', 'Git', 9),
      row('zh/commits.md', '知识库', 4),
      row('zh/log.md', '知识库', 4),
      row('en/commits.md', 'knowledge', 4, true),
      row('en/commits.md', 'snapshot', 30, true),
      row('zh/commits.md', '快照', 3),
      row('zh/log.md', '快照', 3),
    ];
    const all = groupConcepts(found, docs, 2, 100, [], dict).map((c) => [c.title, ...c.aliases]);
    expect(pageOf(all, '知识库')[0]).not.toContain('knowledge');
    expect(pageOf(all, '快照')[0]).not.toContain('snapshot');
  });

  it('makes no page of everyday words alone, however many documents use them', () => {
    const dict = dictionary({ 提交: ['commit'] });
    const found = docs.map((d) => row(d.raw_path, d.lang === 'en' ? 'commit' : '提交', 20, true));
    expect(groupConcepts(found, docs, 2, 100, [], dict)).toEqual([]);
  });

  it('counts no everyday word toward the works a concept needs', () => {
    const found = [row('en/log.md', 'snapshot', 9), row('zh/log.md', 'snapshot', 9, true)];
    expect(groupConcepts(found, docs, 2, 100, [])).toEqual([]);
  });

  it('joins an everyday word tied to two concepts to neither (it would bridge them)', () => {
    const dict = dictionary({ 标签: ['marker', 'label'] }, (k) =>
      k === 'marker' || k === 'label' ? '标签' : undefined,
    );
    const found = [
      row('en/commits.md', 'marker', 5),
      row('en/log.md', 'marker', 5),
      row('en/commits.md', 'label', 5),
      row('en/log.md', 'label', 5),
      row('zh/log.md', '标签', 9, true),
    ];
    const all = groupConcepts(found, docs, 2, 100, [], dict).map((c) => [c.title, ...c.aliases]);
    expect(all).toHaveLength(2);
    expect(all.flat()).not.toContain('标签');
  });
});

describe('groupConcepts: a name and its -ing form', () => {
  it('gives "rebasing" and "rebase", "tagging" and "tag" one page each, and leaves "string" and "thing" alone', () => {
    const rows = [
      named('a.md', 'Rebasing'),
      named('b.md', 'rebase'),
      named('a.md', 'tagging'),
      named('b.md', 'tag'),
      named('a.md', 'string'),
      named('b.md', 'str'),
      named('a.md', 'thing'),
      named('b.md', 'th'),
    ];
    const all = groupConcepts(rows, [doc('a.md'), doc('b.md')], 2, 100, [], undefined).map((c) =>
      [c.title, ...c.aliases].map((n) => n.toLowerCase()),
    );
    expect(pageOf(all, 'rebase')[0]).toContain('rebasing');
    expect(pageOf(all, 'tag')[0]).toContain('tagging');
    expect(pageOf(all, 'string')).toEqual([]);
  });
});

describe('groupConcepts: what a page needs', () => {
  const row = (raw_path: string, surface: string, salient: boolean, aliases: string[] = []): EntityRow => ({
    raw_path,
    key: surface.toLowerCase(),
    surface,
    aliases,
    count: 2,
    snippets: [],
    salient,
  });
  const many = (n: number) => Array.from({ length: n }, (_, i) => doc(`d${i}.md`));

  it('gives no page to a name two works of a larger knowledge base mention only in passing', () => {
    const rows = [row('d0.md', 'John', false), row('d1.md', 'John', false)];
    expect(groupConcepts(rows, many(12), 2, 100, []).map((c) => c.title)).toEqual([]);
  });

  it('keeps it where one of the two introduces it, three works name it, or the base is small', () => {
    const introducedRows = [row('d0.md', 'packfile', true), row('d1.md', 'packfile', false)];
    expect(groupConcepts(introducedRows, many(12), 2, 100, []).map((c) => c.title)).toEqual(['packfile']);
    const three = ['d0.md', 'd1.md', 'd2.md'].map((p) => row(p, 'refspec', false));
    expect(groupConcepts(three, many(12), 2, 100, []).map((c) => c.title)).toEqual(['refspec']);
    const small = [row('d0.md', 'refspec', false), row('d1.md', 'refspec', false)];
    expect(groupConcepts(small, many(4), 2, 100, []).map((c) => c.title)).toEqual(['refspec']);
  });

  const dict = dictionary({
    追踪: ['track', 'trace'],
    档案: ['file', 'record'],
    推论: ['inference'],
    吞吐量: ['throughput'],
    快照: ['snapshot'],
  });
  const zh = (surface: string, gloss: string, path: string): EntityRow => ({
    ...row(path, surface, true, [gloss]),
    key: surface,
  });

  it('drops a Chinese phrase glossed by a word that translates only a word before its head', () => {
    const rows = [zh('追踪档案', 'track', 'd0.md'), zh('追踪档案', 'track', 'd1.md')];
    expect(groupConcepts(rows, many(3), 2, 100, [], dict)).toEqual([]);
  });

  it('takes a product named beside a phrase for no gloss of it (安装方式 Docker); a transliteration and a spelt compound stay', () => {
    const words = dictionary({
      安装: ['to install', 'to erect'],
      方式: ['way', 'manner', 'style'],
      反向: ['reverse', 'opposite direction'],
      链接: ['link', 'to link'],
      底层: ['bottom layer', 'underlying'],
      命令: ['order', 'command'],
      药物: ['medicine'],
      管理: ['to manage'],
      委员会: ['committee', 'council'],
    });
    const beside = (surface: string, gloss: string) => [zh(surface, gloss, 'd0.md'), zh(gloss, gloss, 'd1.md')];
    const titles = (rows: EntityRow[]) =>
      groupConcepts(rows, many(3), 2, 100, [], words).map((c) => [c.title, ...c.aliases]);
    expect(titles(beside('安装方式', 'Docker'))).not.toContainEqual(expect.arrayContaining(['安装方式', 'Docker']));
    expect(titles(beside('反向链接', 'Backlinks'))).toContainEqual(expect.arrayContaining(['反向链接', 'Backlinks']));
    expect(titles(beside('斯托曼', 'Stallman'))).toContainEqual(expect.arrayContaining(['斯托曼', 'Stallman']));
    // An English word is a translator's gloss, not a product's name.
    expect(titles(beside('底层命令', 'Plumbing'))).toContainEqual(expect.arrayContaining(['底层命令', 'Plumbing']));
    // Nor is an abbreviation with a lowercase letter in it.
    expect(titles(beside('药物管理委员会', 'GPhC'))).toContainEqual(expect.arrayContaining(['药物管理委员会', 'GPhC']));
  });

  it('keeps one glossed by its head or by the whole (推论吞吐量 Throughput, 快照 snapshot)', () => {
    const head = [zh('推论吞吐量', 'Throughput', 'd0.md'), zh('推论吞吐量', 'Throughput', 'd1.md')];
    expect(groupConcepts(head, many(3), 2, 100, [], dict).map((c) => c.title)).toEqual(['推论吞吐量']);
    const whole = [zh('快照', 'snapshot', 'd0.md'), zh('快照', 'snapshot', 'd1.md')];
    expect(groupConcepts(whole, many(3), 2, 100, [], dict)).toHaveLength(1);
  });
});
