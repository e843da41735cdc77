import { loadConfig } from '../../config/load.js';
import { doctorKb, type DoctorCheck } from '../../doctor/doctor.js';
import { findKbRoot, kbPaths } from '../../kb/paths.js';
import { paint, type Io } from '../io.js';
import type { CliRuntime } from '../runtime.js';
import type { DoctorFlags } from '../flags.js';

/** Exit 1 when any model or the embedder does not work. */
export async function runDoctor(flags: DoctorFlags, rt: CliRuntime): Promise<number> {
  const config = loadConfig(kbPaths(findKbRoot(flags.kb)).config);
  const checks = await doctorKb({ config, env: process.env }, { signal: rt.signal });
  if (flags.json) rt.io.out(JSON.stringify(checks, null, 2));
  else for (const c of checks) printCheck(rt.io, c);
  return checks.every((c) => c.ok) ? 0 : 1;
}

function printCheck(io: Io, c: DoctorCheck): void {
  const mark = c.ok ? paint(io, 'green', 'ok  ') : paint(io, 'red', 'FAIL');
  const key = c.keyEnv ? `; key ${c.keyEnv} ${c.keySet ? 'set' : 'not set'}` : '';
  const where = c.endpoint ? `${c.label} at ${c.endpoint}` : c.label;
  io.out(`${mark} ${c.role.padEnd(18)} ${c.model} (${where}${key})`);
  io.out(`     ${c.ok ? c.detail : paint(io, c.problem === 'no-key' ? 'yellow' : 'red', `${c.problem}: ${c.detail}`)}`);
}
