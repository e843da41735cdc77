// Another kb process holding the kb lock, as a real one does: takes it (waiting for it if need be),
// says `held`, and keeps it until its stdin closes or it is killed.
import { register } from 'tsx/esm/api';

register();
const { acquireLock } = await import('../src/kb/lock.ts');
const [lockPath, command] = process.argv.slice(2);
const lock = await acquireLock(lockPath, command ?? 'compile', { waitMs: 60_000 });
process.stdout.write('held\n');
process.stdin.resume();
process.stdin.on('end', () => {
  lock.release();
  process.exit(0);
});
