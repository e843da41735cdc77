// One process trying to take the kb lock when told to, round after round: for each round r it says
// `ready r`, waits for the go file `<go>r`, tries once, says `won` or `lost`; a winner holds the lock
// until the done file `<done>r` appears. One process plays every round: each try is a new database
// connection, as in a new process, and the processes start (through tsx) only once.
import { existsSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { acquireLock } = await import('../src/kb/lock.ts');
const [lockPath, go, done, rounds = '1'] = process.argv.slice(2);
const until = async (file) => {
  while (!existsSync(file)) await new Promise((r) => setTimeout(r, 1));
};
for (let r = 0; r < Number(rounds); r++) {
  process.stdout.write(`ready ${r}\n`);
  await until(`${go}${r}`);
  try {
    const lock = await acquireLock(lockPath, 'contender');
    process.stdout.write('won\n');
    await until(`${done}${r}`);
    lock.release();
  } catch (err) {
    process.stdout.write(err.name === 'LockError' ? 'lost\n' : `error ${err.stack}\n`);
  }
}
