/**
 * The small Obsidian configuration kb puts in `wiki/.obsidian/`, so that the compiled wiki opens
 * as a vault with nothing to set up: the graph coloured by entry kind (one folder per kind),
 * `index.md` open on first start, wikilinks kept in Obsidian's shortest form, new attachments in
 * `attachments/` (where compile copies the ones from raw/). Obsidian has no core "home page"
 * setting; a workspace whose only tab is index.md is what opens first.
 */

/** Colours per kind, as Obsidian stores them: 0xRRGGBB as a number. */
export const KIND_COLOURS = {
  sources: 0x4e79a7,
  concepts: 0xf28e2b,
  answers: 0x59a14f,
} as const;

export function obsidianFiles(): Record<string, unknown> {
  return {
    'app.json': {
      alwaysUpdateLinks: true,
      newLinkFormat: 'shortest',
      useMarkdownLinks: false,
      attachmentFolderPath: 'attachments',
      propertiesInDocument: 'visible',
      // kb's activity log is not part of the knowledge: keep it out of search and the graph.
      userIgnoreFilters: ['log.md'],
    },
    'graph.json': {
      'collapse-color-groups': false,
      colorGroups: Object.entries(KIND_COLOURS).map(([folder, rgb]) => ({
        query: `path:${folder}/`,
        color: { a: 1, rgb },
      })),
      showAttachments: false,
      hideUnresolved: false,
      showOrphans: true,
      showArrow: false,
    },
    'workspace.json': {
      main: {
        id: 'kb-main',
        type: 'split',
        children: [
          {
            id: 'kb-tabs',
            type: 'tabs',
            children: [
              {
                id: 'kb-home',
                type: 'leaf',
                state: { type: 'markdown', state: { file: 'index.md', mode: 'preview', source: false } },
              },
            ],
          },
        ],
        direction: 'vertical',
      },
      left: {
        id: 'kb-left',
        type: 'split',
        children: [
          {
            id: 'kb-left-tabs',
            type: 'tabs',
            children: [
              { id: 'kb-files', type: 'leaf', state: { type: 'file-explorer', state: { sortOrder: 'alphabetical' } } },
              { id: 'kb-search', type: 'leaf', state: { type: 'search', state: {} } },
            ],
          },
        ],
        direction: 'horizontal',
        width: 300,
      },
      right: {
        id: 'kb-right',
        type: 'split',
        children: [
          {
            id: 'kb-right-tabs',
            type: 'tabs',
            children: [
              { id: 'kb-backlinks', type: 'leaf', state: { type: 'backlink', state: {} } },
              { id: 'kb-outline', type: 'leaf', state: { type: 'outline', state: {} } },
            ],
          },
        ],
        direction: 'horizontal',
        width: 300,
      },
      active: 'kb-home',
      lastOpenFiles: ['index.md'],
    },
  };
}

/** File name → file text (pretty JSON with a final newline). */
export function obsidianFileTexts(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(obsidianFiles()).map(([name, value]) => [name, `${JSON.stringify(value, null, 2)}\n`]),
  );
}
