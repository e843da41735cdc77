import { describe, expect, it } from 'vitest';
import { ownLinks, withOwnMeta } from './own-meta.js';
import type { SourceDraft } from './types.js';

const draft: SourceDraft = {
  title: 'Caching notes',
  aliases: [],
  summary: 'A cache keeps recent results.',
  body: '## Key points\n\n- A cache keeps recent results.\n\n## Source\n\n- File: `raw/note.md`\n',
  compiledBy: 'offline-v62',
  entities: [],
};

describe('withOwnMeta: what the person wrote stays theirs', () => {
  it('carries aliases, tags, the date and the note’s own links, before the file details', () => {
    const out = withOwnMeta(
      draft,
      { aliases: ['cache notes'], tags: ['perf', '#cache notes', 'kb/source'], date: '2024-03-02T10:00:00Z' },
      'See [[Memoization]], [[LRU#policy|least recently used]] and ![[diagram.png]]. `[[not a link]]`',
    );
    expect(out.aliases).toEqual(['cache notes']);
    expect(out.tags).toEqual(['perf', 'cache-notes']);
    expect(out.date).toBe('2024-03-02');
    expect(out.body).toMatch(/## Links\n\n- \[\[Memoization\]\]\n- \[\[LRU\]\]\n\n## Source/);
  });

  it('reads tags and aliases written as one string, and adds nothing a note does not give', () => {
    expect(withOwnMeta(draft, { tags: 'a, b', aliases: 'x' }, 'text').tags).toEqual(['a', 'b']);
    const plain = withOwnMeta(draft, {}, 'No links here.');
    expect(plain).toEqual(draft);
  });

  it('lists no link the draft already makes, and none inside code', () => {
    expect(ownLinks('```\n[[code]]\n```\n[[real]] `[[span]]` ![[img.png]]')).toEqual(['real']);
    const linked = { ...draft, body: `See [[Memoization]].\n\n${draft.body}` };
    expect(withOwnMeta(linked, {}, '[[Memoization]]').body).not.toContain('## Links');
  });

  it('reads a link in a table, its pipe escaped, by its name alone', () => {
    expect(ownLinks('| `permalink` | See [[Permalinks\\|Permalinks]]. |\n| a | [[Sync regions\\|regions]] |')).toEqual([
      'Permalinks',
      'Sync regions',
    ]);
  });
});
