// One process trying to take the kb lock when told to: says `ready`, waits for the go file, tries
// once, says `won` or `lost`; a winner holds the lock until the done file appears.
import { existsSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { acquireLock } = await import('../src/kb/lock.ts');
const [lockPath, goFile, doneFile] = process.argv.slice(2);
const until = async (file) => {
  while (!existsSync(file)) await new Promise((r) => setTimeout(r, 1));
};
process.stdout.write('ready\n');
await until(goFile);
try {
  const lock = await acquireLock(lockPath, 'contender');
  process.stdout.write('won\n');
  await until(doneFile);
  lock.release();
} catch (err) {
  process.stdout.write(err.name === 'LockError' ? 'lost\n' : `error ${err.stack}\n`);
}
