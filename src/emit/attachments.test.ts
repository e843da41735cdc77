import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyAttachments } from './attachments.js';

/** The id git gives a file's content: the same bytes under two paths are one object. */
const gitBlob = (bytes: Buffer) =>
  createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]))
    .digest('hex');

describe('copyAttachments', () => {
  it('copies byte for byte (one git blob for raw/ and wiki/), again when raw changes, and removes what left raw/', () => {
    const root = mkdtempSync(join(tmpdir(), 'kb-attach-'));
    const raw = join(root, 'raw');
    const wiki = join(root, 'wiki');
    mkdirSync(join(raw, 'papers'), { recursive: true });
    const pdf = Buffer.from('%PDF-1.4 capybara\n');
    writeFileSync(join(raw, 'papers', 'capybara.pdf'), pdf);
    writeFileSync(join(raw, 'tapir.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    copyAttachments(raw, wiki, ['papers/capybara.pdf', 'tapir.png']);
    const copy = readFileSync(join(wiki, 'attachments', 'capybara.pdf'));
    expect(gitBlob(copy)).toBe(gitBlob(pdf));

    const changed = Buffer.from('%PDF-1.4 capybara, second edition\n');
    writeFileSync(join(raw, 'papers', 'capybara.pdf'), changed);
    rmSync(join(raw, 'tapir.png'));
    copyAttachments(raw, wiki, ['papers/capybara.pdf'], undefined, new Set(['papers/capybara.pdf']));
    expect(readFileSync(join(wiki, 'attachments', 'capybara.pdf')).equals(changed)).toBe(true);
    expect(existsSync(join(wiki, 'attachments', 'tapir.png'))).toBe(false);
    expect(readFileSync(join(raw, 'papers', 'capybara.pdf')).equals(changed)).toBe(true);
  });
});
