import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packagePath } from '../kb/package-root.js';

const require = createRequire(import.meta.url);

/**
 * The files the pages load: kb's own script and style, and the prebuilt browser builds of the
 * graph libraries, read from where npm installed them (no bundler runs).
 */
export function assetPaths(): Record<string, string> {
  return {
    'app.js': packagePath('src', 'serve', 'assets', 'app.js'),
    'app.css': packagePath('src', 'serve', 'assets', 'app.css'),
    'sigma.min.js': join(dirname(require.resolve('sigma/package.json')), 'dist', 'sigma.min.js'),
    'graphology.umd.min.js': join(dirname(require.resolve('graphology')), 'graphology.umd.min.js'),
  };
}
