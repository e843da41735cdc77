import { Unzip, UnzipInflate, unzipSync } from 'fflate';
import { formatBytes } from './attachment.js';
import type { ConvertProblem } from './types.js';

export interface ZipLimits {
  maxUnpackedBytes: number;
  maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxUnpackedBytes: 256 * 1024 * 1024, maxEntries: 10_000 };

class TooBig extends Error {}

/**
 * Checks a zip-based document before any parser unpacks it: the sizes its central directory
 * declares (this catches entries that overlap, the "non-recursive" zip bomb), then the bytes that
 * really come out of inflating each entry in turn, stopping as soon as the limit is passed (this
 * catches entries that lie about their size). Memory stays at one inflate window: nothing is kept.
 */
export function checkZip(bytes: Uint8Array, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ConvertProblem | undefined {
  let declared = 0;
  let entries = 0;
  try {
    unzipSync(bytes, {
      filter: (f) => {
        declared += f.originalSize;
        entries++;
        return false;
      },
    });
  } catch (err) {
    return broken(err);
  }
  if (entries > limits.maxEntries) return bomb(`${entries} entries`, `at most ${limits.maxEntries}`);
  if (declared > limits.maxUnpackedBytes)
    return bomb(`${formatBytes(declared)} unpacked`, `at most ${formatBytes(limits.maxUnpackedBytes)}`);

  let inflated = 0;
  const unzip = new Unzip((file) => {
    file.ondata = (err, chunk) => {
      if (err) throw err;
      inflated += chunk.length;
      if (inflated > limits.maxUnpackedBytes) throw new TooBig();
    };
    if (file.compression === 0 || file.compression === 8) file.start();
  });
  unzip.register(UnzipInflate);
  try {
    unzip.push(bytes, true);
  } catch (err) {
    if (err instanceof TooBig)
      return bomb(
        `more than ${formatBytes(limits.maxUnpackedBytes)} unpacked`,
        `at most ${formatBytes(limits.maxUnpackedBytes)}`,
      );
    return broken(err);
  }
  return undefined;
}

function bomb(found: string, expected: string): ConvertProblem {
  return {
    ruleId: 'ingest-zip-bomb',
    reason: `Unexpected archive of ${found}, expected ${expected}`,
    note: 'a document this large when unpacked is likely a zip bomb; if it is real, raise `ingest.maxUnpackedBytes` in kb.config.json',
  };
}

function broken(err: unknown): ConvertProblem {
  return {
    ruleId: 'ingest-document-broken',
    reason: `Unexpected broken zip container (${(err as Error).message}), expected a readable document`,
    note: 'open it and save it again with the program that made it',
  };
}
