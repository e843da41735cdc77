import { ruleById } from '../lint/rules/index.js';
import type { Finding } from '../lint/types.js';
import { sha256 } from '../util/hash.js';
import { fileBaseName } from '../entry/names.js';

/** Findings heal fixes together, on one branch. */
export interface HealGroup {
  /** Branch topic: `links`, `frontmatter`, `sources`, `citations`, `contradiction-<subject>`, `duplicate-<name>`. */
  topic: string;
  kind: 'structural' | 'content';
  /** What and why, for the commit subject: "fix 3 broken links and 2 backlink lists". */
  title: string;
  findings: Finding[];
  /** Findings of this topic heal cannot fix, with the reason. */
  unfixable: { finding: Finding; why: string }[];
  /** Same findings → same fingerprint: a second run on the same day reuses the branch. */
  fingerprint: string;
}

const STRUCTURAL_TOPIC: Record<string, string> = {
  'broken-link': 'links',
  'missing-backlink': 'links',
  schema: 'frontmatter',
  'missing-summary': 'frontmatter',
  'uncompiled-source': 'sources',
  'stale-entry': 'sources',
  'deleted-source': 'sources',
  'edit-conflict': 'edits',
};

const ORDER = ['frontmatter', 'links', 'sources', 'edits'];

/** Group the fixable findings by topic: structural groups first, then one group per content problem. */
export function planHeal(findings: Finding[]): HealGroup[] {
  const groups = new Map<string, HealGroup>();
  const get = (topic: string, kind: HealGroup['kind']): HealGroup => {
    let g = groups.get(topic);
    if (!g) {
      g = { topic, kind, title: '', findings: [], unfixable: [], fingerprint: '' };
      groups.set(topic, g);
    }
    return g;
  };
  for (const f of findings) {
    const rule = ruleById(f.ruleId);
    if (!rule?.fixable) continue;
    const structural = STRUCTURAL_TOPIC[f.ruleId];
    if (structural) {
      const g = get(structural, 'structural');
      if (f.data?.['unreadable'])
        g.unfixable.push({ finding: f, why: 'the YAML cannot be read; only a person can tell what it meant' });
      // A stale entry a person edited is not recompiled over their edit: the model updates it (below).
      else if (f.ruleId === 'stale-entry' && f.data?.['humanEdited'])
        get(`update-${topicSlug(fileBaseName(f.file))}`, 'content').findings.push(f);
      else g.findings.push(f);
      continue;
    }
    if (f.ruleId === 'contradiction')
      get(`contradiction-${topicSlug(String(f.data?.['subject'] ?? 'facts'))}`, 'content').findings.push(f);
    else if (f.ruleId === 'duplicate-entry')
      get(`duplicate-${topicSlug(fileBaseName(String(f.data?.['other'] ?? f.file)))}`, 'content').findings.push(f);
    else if (f.ruleId === 'missing-citation') get('citations', 'content').findings.push(f);
  }
  const out = [...groups.values()].filter((g) => g.findings.length > 0 || g.unfixable.length > 0);
  for (const g of out) {
    g.title = titleOf(g);
    g.fingerprint = sha256(
      g.findings
        .map((f) => `${f.ruleId}|${f.file}|${f.reason}`)
        .sort()
        .join('\n'),
    ).slice(0, 16);
  }
  const rank = (g: HealGroup) => (ORDER.includes(g.topic) ? ORDER.indexOf(g.topic) : ORDER.length);
  return out.sort((a, b) => rank(a) - rank(b) || a.topic.localeCompare(b.topic));
}

/** A branch-safe topic: ASCII letters, digits and dashes; a short hash for names in other scripts. */
export function topicSlug(s: string): string {
  const ascii = s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return ascii || sha256(s).slice(0, 8);
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function titleOf(g: HealGroup): string {
  const by = (id: string) => g.findings.filter((f) => f.ruleId === id).length;
  const parts: string[] = [];
  switch (g.topic) {
    case 'links':
      if (by('broken-link')) parts.push(`fix ${count(by('broken-link'), 'broken link')}`);
      if (by('missing-backlink')) parts.push(`regenerate ${count(by('missing-backlink'), 'backlink list')}`);
      break;
    case 'frontmatter':
      if (by('schema')) parts.push(`repair ${count(by('schema'), 'invalid frontmatter field')}`);
      if (by('missing-summary'))
        parts.push(`add ${count(by('missing-summary'), 'missing summary', 'missing summaries')}`);
      break;
    case 'sources':
      if (by('uncompiled-source')) parts.push(`compile ${count(by('uncompiled-source'), 'new source')}`);
      if (by('stale-entry')) parts.push(`recompile ${count(by('stale-entry'), 'stale entry', 'stale entries')}`);
      if (by('deleted-source')) parts.push(`clean up ${count(by('deleted-source'), 'deleted source')}`);
      break;
    case 'edits':
      parts.push(
        `offer kb's update to ${count(g.findings.length, 'entry', 'entries')} you edited, where you both changed the same lines`,
      );
      break;
    case 'citations':
      parts.push(`add citations to ${count(g.findings.length, 'paragraph')}`);
      break;
    default:
      if (g.topic.startsWith('update-'))
        parts.push(`update ${g.findings[0]?.file ?? 'an entry'}, edited by you, to its changed source`);
      else if (g.topic.startsWith('contradiction-'))
        parts.push(
          `reconcile what ${count(new Set(g.findings.flatMap((f) => [f.file, String(f.data?.['path'])])).size, 'entry', 'entries')} say about ${String(g.findings[0]?.data?.['subject'] ?? 'a subject')}`,
        );
      else
        parts.push(
          `merge ${String(g.findings[0]?.data?.['other'] ?? '')} into ${String(g.findings[0]?.data?.['path'] ?? '')}`,
        );
  }
  return parts.join(', ') || `nothing heal can fix in ${g.topic}`;
}

/** `heal/<topic>-<YYYYMMDD>`, then `-2`, `-3`… when taken. */
export function branchName(topic: string, date: Date, taken: (name: string) => boolean): string {
  const base = `heal/${topic}-${ymd(date, '')}`;
  if (!taken(base)) return base;
  for (let n = 2; ; n++) if (!taken(`${base}-${n}`)) return `${base}-${n}`;
}

export function ymd(d: Date, sep = '-'): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${sep}${p(d.getMonth() + 1)}${sep}${p(d.getDate())}`;
}
