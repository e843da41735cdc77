#!/usr/bin/env node
// kb's command-line entry: runs the TypeScript sources through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
if (process.env.KB_REPORT_RSS) process.stderr.write(`kb-max-rss-kb=${process.resourceUsage().maxRSS}\n`);
