import { posix } from 'node:path';
import { strFromU8 } from 'fflate';
import { attr, dublinCore, elements, type OfficeDoc, parseXml, path, readZip, resolvePart } from './office-xml.js';

/**
 * An EPUB book: the package document named by `META-INF/container.xml`, its metadata, and the
 * XHTML files of its spine in reading order as one HTML body (the navigation document left out).
 */
export function readEpub(bytes: Uint8Array): OfficeDoc {
  const parts = readZip(bytes, (n) => !/\.(?:png|jpe?g|gif|svg|webp|css|ttf|otf|woff2?|mp3|mp4)$/i.test(n));
  const container = parseXml(parts.get('META-INF/container.xml'));
  const rootfile = elements(path(container, 'container', 'rootfiles') ?? container, 'rootfile')[0];
  const opfPath = attr(rootfile, 'full-path') ?? [...parts.keys()].find((n) => n.endsWith('.opf'));
  if (!opfPath || !parts.has(opfPath)) throw new Error('no package document (.opf)');
  const pkg = path(parseXml(parts.get(opfPath)), 'package');
  const dir = posix.dirname(opfPath) === '.' ? '' : posix.dirname(opfPath);
  const manifest = new Map<string, { href: string; nav: boolean }>();
  for (const item of elements(path(pkg, 'manifest') ?? pkg!, 'item'))
    manifest.set(attr(item, 'id') ?? '', {
      href: resolvePart(dir, attr(item, 'href') ?? ''),
      nav: /\bnav\b/.test(attr(item, 'properties') ?? ''),
    });
  const bodies: string[] = [];
  for (const ref of elements(path(pkg, 'spine') ?? pkg!, 'itemref')) {
    const item = manifest.get(attr(ref, 'idref') ?? '');
    const file = item && !item.nav ? parts.get(item.href) : undefined;
    if (file) bodies.push(bodyOf(strFromU8(file)));
  }
  return { parts: [{ kind: 'html', html: bodies.join('\n') }], meta: dublinCore(path(pkg, 'metadata')) };
}

/**
 * The inside of an XHTML file's `<body>`, without images (their files are not in the vault); its
 * `<article>` or `<main>` a `<section>`, since the HTML path reads only the one article of a page.
 */
function bodyOf(xhtml: string): string {
  const open = /<body\b[^>]*>/i.exec(xhtml);
  const start = open ? open.index + open[0].length : 0;
  const end = xhtml.toLowerCase().lastIndexOf('</body>');
  return xhtml
    .slice(start, end > start ? end : undefined)
    .replace(/<img\b[^>]*>/gi, '')
    .replace(/<(\/?)(?:article|main)\b/gi, '<$1section');
}
