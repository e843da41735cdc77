import PDFDocument from 'pdfkit';

/** A PDF written by pdfkit (a real PDF writer): pages of text, optional metadata and password. */
export function makePdf(
  pages: string[],
  opts: { title?: string; author?: string; userPassword?: string; drawOnly?: boolean } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      compress: true,
      info: { ...(opts.title ? { Title: opts.title } : {}), ...(opts.author ? { Author: opts.author } : {}) },
      ...(opts.userPassword ? { userPassword: opts.userPassword, pdfVersion: '1.7' as const } : {}),
    });
    const parts: Buffer[] = [];
    doc.on('data', (b: Buffer) => parts.push(b));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.on('error', reject);
    pages.forEach((text, i) => {
      if (i > 0) doc.addPage();
      if (opts.drawOnly) doc.rect(100, 100, 200, 100).fill('#336699');
      else {
        const [heading, ...rest] = text.split('\n');
        doc.fontSize(18).text(heading ?? '');
        if (rest.length) doc.fontSize(11).text(rest.join('\n'));
      }
    });
    doc.end();
  });
}
