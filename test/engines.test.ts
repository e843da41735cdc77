import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; dev?: boolean; optional?: boolean; engines?: { node?: string } }>;
};

/** Node versions on either side of the bounds that packages declare. */
const PROBES = ['18.20.0', '20.0.0', '20.18.0', '20.19.0', '21.7.0', '22.0.0', '22.12.0', '24.0.0', '26.0.0'];

describe('package.json engines', () => {
  it('admits only Node versions that every installed runtime package admits', () => {
    const runtime = Object.entries(lock.packages).filter(([path, p]) => path && !p.dev && p.engines?.node);
    const refused: string[] = [];
    for (const v of PROBES.filter((v) => semver.satisfies(v, pkg.engines.node)))
      for (const [path, p] of runtime)
        if (!semver.satisfies(v, p.engines!.node!))
          refused.push(`${path.replace(/^.*node_modules\//, '')}@${p.version} (node ${p.engines!.node}) refuses ${v}`);
    expect(refused).toEqual([]);
  });

  it('admits the Node version this runs on, and the kb package installs no build tools', () => {
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
    for (const tool of ['tsx', 'esbuild', 'typescript', 'pdfkit', 'officeparser', 'simple-git'])
      expect(pkg.dependencies, tool).not.toHaveProperty(tool);
  });
});
