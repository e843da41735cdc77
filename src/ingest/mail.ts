import { convertHtml, loadHtml } from './html.js';
import { escapeLines } from './plain.js';
import type { Converted, ConvertOutcome } from './types.js';

interface Message {
  subject: string;
  from?: string;
  to?: string;
  date?: string;
  id?: string;
  body: string;
  attachments: string[];
}

/**
 * Mail through postal-mime (MIME, encoded words and every charset a mailer uses). An `.eml` is one
 * message; an `.mbox` is split at its `From ` lines (RFC 4155, `>From` unescaped) and each message
 * becomes a `## Subject` section with its own anchor, one document per file (splitting a file
 * into one entry per message is issue 11's multi-post work).
 */
export async function convertMail(bytes: Uint8Array, ext: string, fallbackTitle: string): Promise<ConvertOutcome> {
  await loadHtml();
  const { default: PostalMime } = await import('postal-mime');
  const raws = ext === '.mbox' ? splitMbox(bytes) : [bytes];
  const messages: Message[] = [];
  for (const raw of raws) {
    try {
      const email = await PostalMime.parse(raw);
      const from = email.from
        ? [email.from.name, email.from.address ? `<${email.from.address}>` : ''].filter(Boolean).join(' ')
        : undefined;
      const to =
        (email.to ?? [])
          .map((a) => a.name || a.address)
          .filter(Boolean)
          .join(', ') || undefined;
      const text = email.text?.trim() ? escapeLines(email.text.replace(/\r\n?/g, '\n').trim(), { quotes: true }) : '';
      const body = text || (email.html ? convertHtml(email.html, '', { headingOffset: 2 }).markdown.trim() : '');
      messages.push({
        subject: (email.subject ?? '').replace(/\s+/g, ' ').trim() || '(no subject)',
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
        ...(email.date ? { date: isoDate(email.date) } : {}),
        ...(email.messageId ? { id: email.messageId } : {}),
        body,
        attachments: (email.attachments ?? []).map((a) => a.filename ?? '').filter(Boolean),
      });
    } catch {
      // One unreadable message in a mailbox does not lose the others.
    }
  }
  if (!messages.length)
    return {
      problem: {
        ruleId: 'ingest-mail',
        reason: `Unexpected ${ext === '.mbox' ? 'mailbox without a readable message' : 'mail file kb cannot read'}, expected RFC 5322 mail`,
        note: 'export the mail again from the mail program (as .eml or .mbox)',
      },
    };

  if (ext !== '.mbox' || messages.length === 1) {
    const m = messages[0]!;
    const meta: Record<string, unknown> = {};
    if (m.from) meta['author'] = m.from;
    if (m.date) meta['published'] = m.date;
    if (m.to) meta['to'] = m.to;
    return {
      converted: {
        title: m.subject === '(no subject)' ? fallbackTitle : m.subject,
        markdown: `${header(m)}\n\n${m.body}\n`,
        meta,
      },
    };
  }
  const sections = messages.map(
    (m) => `## ${m.subject.replace(/^#+/, '')}\n\n${header(m)}${m.body ? `\n\n${m.body}` : ''}`,
  );
  // What splitPosts needs to make one entry per message (ingest/posts.ts).
  const posts = messages.map((m) => ({
    title: m.subject.replace(/^#+/, ''),
    ...(m.date ? { date: m.date } : {}),
    ...(m.from ? { author: m.from } : {}),
    ...(m.id ? { guid: m.id } : {}),
  }));
  const converted: Converted = {
    title: fallbackTitle,
    markdown: `${sections.join('\n\n')}\n`,
    meta: { messages: messages.length, posts },
  };
  return { converted };
}

function header(m: Message): string {
  return [
    m.from && `- From: ${m.from}`,
    m.to && `- To: ${m.to}`,
    m.date && `- Date: ${m.date}`,
    m.attachments.length ? `- Attachments: ${m.attachments.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** `Thu, 04 Jan 2024 10:20:00 +0800` → `2024-01-04 02:20` (UTC), or the text as written. */
function isoDate(s: string): string {
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? s : d.toISOString().slice(0, 16).replace('T', ' ');
}

/** Messages of an mbox: each starts at a line `From ` at the start of the file or after a newline. */
export function splitMbox(bytes: Uint8Array): Uint8Array[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const starts: number[] = [];
  const re = /(?:^|\n)From [^\n]*\n/g;
  for (let m = re.exec(text); m; m = re.exec(text)) starts.push(m.index + (m[0].startsWith('\n') ? 1 : 0));
  const out: Uint8Array[] = [];
  starts.forEach((s, i) => {
    const body = text.slice(text.indexOf('\n', s) + 1, starts[i + 1] ?? text.length).replace(/^>(>*From )/gm, '$1');
    if (body.trim()) out.push(Buffer.from(body, 'latin1'));
  });
  return out;
}
