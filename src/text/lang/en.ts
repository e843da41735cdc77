/**
 * English, as data: the words kb's passes read by, one list per role, defined once. Compile
 * (entities, titles, summaries), search, the answerer and lint import them from here.
 */
import { wordList } from './words.js';

/** Closed-class words (articles, pronouns, prepositions, auxiliaries, conjunctions): search leaves them out. */
export const FUNCTION_WORDS = new Set(
  wordList(`a an and are as at be been being but by can could did do does doing for from had has have having he
  her here hers him his how i if in into is it its itself just me more most my no nor not of off on once only or
  other our ours out over own same she should so some such than that the their theirs them then there these they
  this those through to too under until up very was we were what when where which while who whom why will with
  would you your yours also may might must shall s t`),
);

/**
 * Words a sentence does not end in (articles, prepositions, conjunctions, auxiliaries): a line that
 * stops at one runs on into the next, however short ("A module is a collection of").
 */
export const RUNS_ON = new Set(
  wordList(`a an the of to in on at for with from by into onto than and or but nor as that which whose
  their its our your my his her is are was were be been has have had will would can could should must may might`),
);

/** Function words and very generic nouns and adjectives: never entities, never at a phrase's edge. */
export const STOP = new Set([
  ...FUNCTION_WORDS,
  ...wordList(`about above after again against all any because before below between both down during each either
  else even ever every few further however least less let like made make many much neither now often per quite
  rather since though thus upon us via whether whose within without yet am one others
  example examples thing things way ways lot lots kind kinds part parts use used uses using case cases time times
  number numbers new old good bad first second last next another several various different small large big little
  great high low long short full main simple easy hard real true false set sets get gets got makes take takes
  note notes see etc e.g i.e vs`),
]);

/**
 * Words naming the kind of thing a name is (the defer statement, the SSH protocol): "X <kind>" is X.
 * Not words for what belongs to X (a Git repository is not Git), nor kinds an adjective often
 * narrows (a remote branch is no remote, a design pattern no design).
 */
export const KIND_WORDS = new Set(wordList('statement keyword protocol macro trait directive'));

/**
 * Words naming the thing that does an activity, when the activity is a phrase of its own: a version
 * control system is version control, a content management system content management. After one
 * word they name a kind of thing ("file system", "type system" are no file and no type).
 */
export const DOER_WORDS = new Set(wordList('system'));

/** Words that say a number is not exact ("about 40", "nearly half"): no subject of a stated number. */
export const APPROXIMATORS = new Set(wordList('about around approximately roughly nearly almost'));

/** Capitalised words that start sentences or headings but name nothing. */
export const CAP_STOP = new Set(
  wordList(`a an the this that these those it its in on at to for from by with of and or but if when while as so
  then there here what which who why how all any each every some no not yes also however therefore thus we you they
  he she i our your their my his her one two three first second third finally next last today yesterday tomorrow
  note notes see example examples figure table step steps summary introduction conclusion overview background why
  what how january february march april may june july august september october november december monday tuesday
  wednesday thursday friday saturday sunday ok todo faq q a`),
);

/**
 * Words that are capitalised as labels, log levels, literals or UI text (`Chapter 3`, `None`,
 * `error`, `Click`), never concepts of their own.
 */
export const GENERIC = new Set(
  wordList(`chapter listing figure fig table section page step round part appendix note tip tips warning warnings
  error errors info debug notice todo fixme none null nil true false undefined nan yes no ok okay click create open
  close save cancel submit edit delete update run start stop next previous back home menu button tab window file
  files folder line lines item items list value values result results output input default example sample test
  tests demo version v1 v2 summary abstract introduction conclusion contents index reference references source
  sources author date title`),
);

/** The placeholder names of examples (metasyntactic variables): `Foo`, `impl Bar for Baz`, hoge. */
export const PLACEHOLDERS = new Set(
  wordList('foo bar baz qux quux corge grault garply waldo fred plugh xyzzy thud foobar hoge fuga piyo'),
);

/**
 * Verbs of a step in a user interface ("click **Publish changes**", "select **Settings**"): what they
 * act on, in bold, is a control's label, not a name the text stresses.
 */
export const UI_VERBS = wordList(
  'click clicking tap tapping select selecting choose press toggle enable disable check uncheck hover open opening',
);

/**
 * Verbs that open a step of instructions ("Open Obsidian and select…", "Install Docker first"): one
 * that opens a sentence is no word of the capitalised name after it.
 */
export const STEP_VERBS = new Set(
  wordList(
    'open close install uninstall launch download click select tap choose enable disable create run restart update upgrade',
  ),
);

/**
 * Verbs that a heading or title of steps opens with and that name no thing there ("Add cards", "Show
 * backlinks", "Customize navigation"): unlike open, set, use or change, none is read as a noun or an
 * adjective before a noun (open source, set theory, use case, change management).
 */
export const INSTRUCTION_VERBS = new Set(
  wordList(
    'add create delete remove edit install uninstall enable disable show hide rename embed connect disconnect navigate resize arrange explain manage customize configure insert choose',
  ),
);

/** The reader's possessive, which instructions address ("Sync your vault", "Customize your site"). */
export const READERS = new Set(wordList('your'));

/** Determiners and possessives: a word before one at a title's start is a verb taking it ("Customize your site"). */
export const DETERMINERS = new Set(wordList('a an the your my our their his her its this these that those'));

/** Nouns of a control after its label ("the **Publish changes** dialog", "the **Views** toggle"). */
export const UI_CONTROLS = wordList(
  'dialog dialogs menu menus button buttons command commands setting settings window tab tabs pane panes option options toggle toggles field fields icon icons checkbox dropdown modal popup prompt',
);

/** Adjectives that qualify without naming ("other tools", "new approach"): dropped from a phrase's start. */
export const GENERIC_ADJ = new Set(
  wordList(`other new old many much more most few several various different same similar good better best bad
  worse simple complex whole entire specific certain following previous single multiple own main important key
  major minor real actual current recent early late large small big little high low long short full possible
  available common general typical basic additional further final initial original overall particular special
  existing unused used valid invalid relevant related corresponding respective given proper necessary useful
  usual`),
);

/**
 * Nouns for a kind of text ("Specialization Review", "Stream trait design meeting", "Release notes"):
 * a title's word of this list says what the text is, unless the text writes it inside a name
 * ("Daily notes is a core plugin": subject.ts kindWordsInName).
 */
export const TEXT_KINDS = new Set(
  wordList(`meeting meetings minutes review reviews update updates note notes introduction intro overview guide
  guides tutorial tutorials primer preview part chapter basics proposal discussion recap summary announcement
  release week issue issues faq cheatsheet sheet reference handbook lesson lessons lecture session sessions talk
  talks post thoughts remarks`),
);

/**
 * Words a title uses for what kind of text it is, not what the text is about, and its function words:
 * the subject of a work is looked for among the others.
 */
export const TITLE_GENRE = new Set([
  ...TEXT_KINDS,
  ...wordList(`design basic getting started start introducing announcing shipping released weekly cheat need do
  does we our my you your how why what when where which who is are a an the of and or in on for with to from
  about vs versus using use new beyond into onto toward towards across behind inside outside around among
  within through again`),
]);

/** Words a question asks with, not what it asks about. */
export const ASKING = new Set(wordList('what which who are were the and for with how many does did list name there'));

/** Number words, one to ten, in order. */
export const NUMBERS = wordList('one two three four five six seven eight nine ten');

/** What a question or a numbered line counts in ("the steps", "Pattern 2"). */
export const COUNTERS = wordList('step pattern part phase stage tip rule lesson principle');

/** Words for one text of a series or a part of a work ("in which issue", "which chapter"): asked for, the answer is its title. */
export const WORK_PARTS = wordList('issue edition episode post article chapter section meeting release volume');

/** Words that ask for an ordered process rather than a thing. */
export const PROCESS_WORDS = wordList('step steps process workflow pipeline');

/** Words that give a reason or a purpose. */
export const REASON_CUES = [
  ...wordList('because since given therefore thus hence reason'),
  ...['due to', 'so that', 'in order to', 'as a result'],
];

/**
 * Words that open a clause of reason, purpose, condition or time ("Because the evaluator browses…",
 * "When a branch is merged…"): a name after them is the clause's, and the sentence says when or why,
 * not what the name is.
 */
export const CLAUSE_OPENERS = wordList('because since if when whenever although though while unless once after before');

/** Words that rank one thing above the rest ("the best method", "the biggest downside"). */
export const SUPERLATIVES = wordList(`best worst most least biggest largest greatest highest lowest fastest slowest
  strongest weakest simplest easiest hardest cheapest safest`);

/** Words with which a sentence leans on the one before it. */
export const CONNECTIVES = wordList('However But And So Then Also Thus Therefore Moreover').concat(['For example']);

/** Labels of a document's header lines: who wrote it, where from, when. */
export const HEADER_LABELS = wordList('src source author by url link date published');

/** Labels of a list of related links, not of statements. */
export const RELATED_LABELS = [
  'related',
  'see also',
  'link',
  'links',
  'reference',
  'references',
  'source',
  'sources',
  'further reading',
];

/** What the offline answer says when no statement answers with confidence, before the passages likeliest to. */
export const UNSURE = 'No sentence in the wiki answers this for certain; these passages are the likeliest to:';

/** Verbs by which a statement says what its subject is ("X is …", "X refers to …"). */
export const DEFINING = ['is', 'are', 'means', 'refers to', 'stands for', 'is defined as'];

/** Words that open a relative clause ("combinators that are equal to…"): what follows says nothing of what the noun is. */
export const RELATIVES = wordList('that which who whose whom');

/** Words by which a statement names what it has described ("…, later called Folgezettel"). */
export const CALLED = ['called', 'known as', 'referred to as', 'termed', 'dubbed', 'named'];

/**
 * Words that open the clause defining a term set in quotes just before them: "context rot," in
 * which…; "cold start", meaning…; "yak shaving" (that is, …).
 */
export const QUOTE_DEFINING = ['in which', 'where', 'meaning', 'which means', 'i.e.', 'that is'];

/** A copula and an indefinite article: "X is a…", "X are one of…" says what kind of thing X is. */
export const GENUS_COPULAS = ['is', 'are'];
export const GENUS_ARTICLES = ['a', 'an', 'one of'];

/** Words that tie a place or a frame to a question's subject ("provenance in a memory model"): the subject ends before them. */
export const SUBJECT_TAILS = ['in', 'of', 'for', 'within', 'under'];

/** Words by which a statement sets two things against each other. */
export const CONTRAST_CUES = [
  ...wordList('unlike whereas instead differ differs different difference versus vs compare compared while but'),
  ...['rather than', 'as opposed to', 'on the other hand'],
];

/** Words that end a clause pointing ahead to a list ("…, such as:"): without its list the clause says nothing. */
export const POINTS_AHEAD: readonly string[] = [
  'the following',
  'as follows',
  'include',
  'including',
  'are',
  'such as',
  'like',
  'for example',
  'for instance',
  'namely',
  'e.g.',
];
