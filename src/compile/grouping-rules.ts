/**
 * The rules that decide which names are one idea on one page, and which names get a page at all,
 * as a table: each names the kind of text it is for and where it is implemented (concepts.ts), and
 * carries examples it must match and examples alike that it must not. grouping-rules.test.ts runs
 * every example through extraction and groupConcepts, the way lint's rule examples run through lint.
 *
 * `join`: the two names share a page where the rule applies, and not in its `notMatch` examples.
 * `part`: the two names stay on pages of their own where it applies (its `notMatch` examples show
 * the same kind of pair joined for another reason). `page` / `no-page`: the one name gets a page,
 * or none, where it applies.
 */
export interface GroupingExample {
  /** Documents by path, as Markdown (their names are found by extraction)… */
  docs?: Record<string, string>;
  /** …or rows of names a document writes three times, stressed unless marked 'passing': [path, name]. */
  rows?: ([string, string] | [string, string, 'passing'])[];
  /** Documents in the knowledge base besides those the examples name (a larger base asks more). */
  more?: number;
  names: string[];
}

export interface GroupingRule {
  id: string;
  does: 'join' | 'part' | 'page' | 'no-page';
  docs: string;
  where: string;
  match: GroupingExample[];
  notMatch: GroupingExample[];
}

export const GROUPING_RULES: readonly GroupingRule[] = [
  {
    id: 'gloss-across-works',
    does: 'join',
    docs: 'A Chinese term and the English name a text gives it in parentheses are one page, also where another work writes only the English.',
    where: 'concepts.ts groupConcepts (aliases)',
    match: [
      {
        docs: {
          'a.md': '消息队列（message queue）会暂存服务之间的任务。消息队列很常见。',
          'b.md': 'A message queue holds the jobs between services. Teams with a message queue absorb bursts.',
        },
        names: ['消息队列', 'message queue'],
      },
    ],
    notMatch: [
      {
        docs: {
          'a.md': '消息队列会暂存服务之间的任务。消息队列很常见，消息队列也很难调。',
          'c.md': '消息队列在大集群中出现。消息队列让突发流量变平。',
          'b.md': 'A message queue holds the jobs between services. Teams with a message queue absorb bursts.',
          'd.md': 'We measured the message queue twice. The message queue added latency.',
        },
        names: ['消息队列', 'message queue'],
      },
    ],
  },
  {
    id: 'script-folding',
    does: 'join',
    docs: 'A name in Traditional and in Simplified script is one name (所有權規則, 所有权规则).',
    where: 'concepts.ts groupConcepts (entityKey folds the scripts)',
    match: [
      {
        docs: {
          'tw.md': '所有權規則決定誰能修改。所有權規則寫在設定檔裡。',
          'cn.md': '所有权规则决定谁能修改。所有权规则写在配置文件里。',
        },
        names: ['所有權規則', '所有权规则'],
      },
    ],
    notMatch: [
      {
        docs: {
          'tw.md': '所有權規則決定誰能修改。所有權規則寫在設定檔裡。',
          'cn.md': '所有权规则决定谁能修改。所有权规则写在配置文件里。',
          'tw2.md': '版本控制系統記錄檔案的變化。版本控制系統很常用。',
          'cn2.md': '版本控制系统记录文件的变化。版本控制系统很常用。',
        },
        names: ['所有權規則', '版本控制系統'],
      },
    ],
  },
  {
    id: 'regional-word',
    does: 'join',
    docs: 'A Taiwan word and the Mainland word for one thing (程式碼審查, 代码审查) are one page.',
    where: 'concepts.ts groupConcepts (mainlandWord)',
    match: [
      {
        docs: {
          'tw.md': '我們討論程式碼審查。程式碼審查很重要，程式碼審查需要測試。',
          'cn.md': '我们讨论代码审查。代码审查很重要，代码审查需要测试。',
        },
        names: ['程式碼審查', '代码审查'],
      },
    ],
    notMatch: [
      {
        docs: {
          'tw.md': '我們討論程式碼審查。程式碼審查很重要，程式碼審查需要測試。',
          'cn.md': '我们讨论代码审查。代码审查很重要，代码审查需要测试。',
          'tw2.md': '我們討論程式碼風格。程式碼風格很重要，程式碼風格需要統一。',
          'cn2.md': '我们讨论代码风格。代码风格很重要，代码风格需要统一。',
        },
        names: ['程式碼審查', '代码风格'],
      },
    ],
  },
  {
    id: 'vendor-prefix',
    does: 'join',
    docs: "A product and its name with the vendor's in front (Microsoft Azure, Azure) are one page.",
    where: 'concepts.ts VENDOR',
    match: [
      {
        docs: {
          'a.md': 'We host the app on Microsoft Azure. Microsoft Azure bills by the hour.',
          'b.md': 'Prices for Azure differ by region. We moved to Azure last year.',
        },
        names: ['Microsoft Azure', 'Azure'],
      },
    ],
    notMatch: [
      {
        docs: {
          'a.md': 'We deploy with Contoso Bicep. Contoso Bicep compiles templates.',
          'c.md': 'Our team tried Contoso Bicep. Contoso Bicep was quick.',
          'b.md': 'We write Bicep files daily. Teams like Bicep a lot.',
          'd.md': 'Many teams adopt Bicep now. We chose Bicep for templates.',
        },
        names: ['Contoso Bicep', 'Bicep'],
      },
    ],
  },
  {
    id: 'short-name-inside',
    does: 'part',
    docs: 'A short name inside a longer one (Git in Git repository, remote in remote branch) is another idea, unless a rule of its own joins them (a vendor).',
    where: 'concepts.ts groupConcepts (no tie by containment)',
    match: [
      {
        rows: [
          ['a.md', 'Git'],
          ['b.md', 'Git'],
          ['a.md', 'Git repository'],
          ['b.md', 'Git repository'],
        ],
        names: ['Git repository', 'Git'],
      },
    ],
    notMatch: [
      {
        docs: {
          'a.md': 'We host the app on Microsoft Azure. Microsoft Azure bills by the hour.',
          'b.md': 'Prices for Azure differ by region. We moved to Azure last year.',
        },
        names: ['Microsoft Azure', 'Azure'],
      },
    ],
  },
  {
    id: 'name-with-kind',
    does: 'join',
    docs: 'A name and the name with its kind after it (defer, defer statement; HTTP, HTTP protocol) are one page.',
    where: 'concepts.ts namesOfKind (en.KIND_WORDS)',
    match: [
      {
        rows: [
          ['a.md', 'defer statement'],
          ['b.md', 'defer'],
          ['b.md', 'defer statement'],
          ['a.md', 'defer'],
        ],
        names: ['defer statement', 'defer'],
      },
    ],
    notMatch: [
      {
        rows: [
          ['c.md', 'file system'],
          ['d.md', 'file system'],
          ['c.md', 'file'],
          ['d.md', 'file'],
        ],
        names: ['file system', 'file'],
      },
    ],
  },
  {
    id: 'gerund',
    does: 'join',
    docs: 'A name and its -ing form (rebasing, rebase; tagging, tag) are one page; a word that only ends in -ing (string) is not a form of another.',
    where: 'concepts.ts gerunds',
    match: [
      {
        rows: [
          ['a.md', 'Rebasing'],
          ['b.md', 'rebase'],
        ],
        names: ['Rebasing', 'rebase'],
      },
    ],
    notMatch: [
      {
        rows: [
          ['a.md', 'string'],
          ['b.md', 'str'],
          ['b.md', 'string'],
          ['a.md', 'str'],
        ],
        names: ['string', 'str'],
      },
    ],
  },
  {
    id: 'closed-compound',
    does: 'join',
    docs: 'An English compound written open and closed (file name, filename) is one word: one page. A longer name that only begins with it (file name extension) is another idea.',
    where: 'concepts.ts closedCompounds',
    match: [
      {
        rows: [
          ['a.md', 'file name'],
          ['b.md', 'filename'],
          ['b.md', 'file name'],
          ['a.md', 'filename'],
        ],
        names: ['file name', 'filename'],
      },
    ],
    notMatch: [
      {
        rows: [
          ['a.md', 'file name extension'],
          ['b.md', 'filename'],
          ['b.md', 'file name extension'],
          ['a.md', 'filename'],
        ],
        names: ['file name extension', 'filename'],
      },
    ],
  },
  {
    id: 'shortened-expansion',
    does: 'join',
    docs: 'Two expansions of one abbreviation that say the same words, some cut short (multi-page app and multi-page application, MPA), are one name; two that say other words (product information sheet and patient intake survey, PIS) stay apart.',
    where: 'concepts.ts ambiguousAliases (oneExpansion)',
    match: [
      {
        docs: {
          'a.md':
            'A multi-page app (MPA) loads each page from the server. The multi-page app is simple. Every multi-page app reloads.',
          'b.md':
            'Each multi-page application (MPA) reloads on navigation. A multi-page application is robust. The multi-page application is old.',
        },
        names: ['multi-page app', 'multi-page application'],
      },
    ],
    notMatch: [
      {
        docs: {
          'a.md':
            'Sellers publish a product information sheet (PIS). The product information sheet lists sizes. Every product information sheet is signed.',
          'b.md':
            'Doctors order a patient intake survey (PIS). The patient intake survey asks questions. Each patient intake survey is short.',
          'c.md':
            'Write the product information sheet first. A product information sheet names the maker. Keep one product information sheet per item.',
          'd.md':
            'Nurses hand out the patient intake survey. The patient intake survey takes minutes. Clinics file the patient intake survey.',
        },
        names: ['product information sheet', 'patient intake survey'],
      },
    ],
  },
  {
    id: 'passing-mention',
    does: 'no-page',
    docs: 'A name two works of a larger knowledge base only mention in passing (an example’s John) is no shared idea; one a work introduces or stresses is.',
    where: 'concepts.ts PASSING_WORKS, introduced',
    match: [
      {
        rows: [
          ['a.md', 'John', 'passing'],
          ['b.md', 'John', 'passing'],
        ],
        more: 10,
        names: ['John'],
      },
    ],
    notMatch: [
      {
        rows: [
          ['a.md', 'packfile'],
          ['b.md', 'packfile', 'passing'],
        ],
        more: 10,
        names: ['packfile'],
      },
    ],
  },
];
