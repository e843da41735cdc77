import type { KbEntryXml } from '../../model/xml.js';
import type { RawDocument } from '../../types.js';
import { stem } from '../../ingest/detect.js';
import { fileOf } from '../../ingest/posts.js';
import { HEADER_LABEL } from '../../text/layout.js';

/** A title that is a date line or a header label, not the work's title. */
const NOT_A_TITLE =
  /(发布日期|发布时间|發佈日期|發佈時間|published|posted on)\s*[:：]|^\s*(原文信息|原文|source info)\s*$|^\s*[\d\s\-/:.年月日T]+$/iu;
const MAX_SUMMARY_SENTENCES = 4;

/**
 * What REVIEW.md asks of a source entry, checked on the model's reply (a failure gets one repair
 * round, then the offline compiler): the work's own title, and a summary of its thesis that reads
 * on its own — not the title glued to a sentence, not a header line, not a whole page.
 */
export function checkSourceEntry(
  e: KbEntryXml,
  doc: Pick<RawDocument, 'path' | 'post' | 'title' | 'meta'>,
): string | undefined {
  const title = e.title.trim();
  const summary = e.summary.trim();
  if (NOT_A_TITLE.test(title))
    return `Unexpected <title> "${title}" that is a date or header line, expected the work's own title`;
  const collection = typeof doc.meta['collection'] === 'string' ? doc.meta['collection'] : undefined;
  if (collection && title === collection && doc.title !== collection)
    return `Unexpected <title> "${title}", the name of the feed or archive, expected the title of this post ("${doc.title}")`;
  const file = stem(fileOf(doc));
  if (title === file && doc.title !== file)
    return `Unexpected <title> "${title}", the file name, expected the work's own title (e.g. "${doc.title}")`;
  if (/^(raw\/|\.{0,2}\/)|\.(md|txt|html?|pdf)$/i.test(title))
    return `Unexpected <title> "${title}" that is a file path, expected the work's own title`;
  if (summary.toLowerCase().startsWith(title.toLowerCase()) && summary.length > title.length) {
    const next = summary.slice(title.length);
    if (
      !/^\s*[:：,，(（—-]|^\s+(is|are|was|describes|explains|argues|shows)\b|^(是|为|介绍|讲|描述|说明|认为)/u.test(
        next,
      )
    ) {
      return 'Unexpected <summary> that starts with the title run into a sentence, expected sentences that read on their own';
    }
  }
  if (HEADER_LABEL.test(summary))
    return 'Unexpected <summary> that opens with a header line (author, source, date), expected what the work argues or explains';
  const sentences = summary.split(/(?<=[.!?。！？])\s*/u).filter((s) => s.trim().length > 1);
  if (sentences.length > MAX_SUMMARY_SENTENCES)
    return `Unexpected <summary> of ${sentences.length} sentences, expected 1–3 that state the work's thesis`;
  return undefined;
}
