import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file in DATA_DIR that says which process has the embedded database open. */
export const DATA_DIR_LOCK_FILE = 'roadpass.lock';

export interface DataDirLockHolder {
  pid: number;
  /** What holds it, e.g. "server" or "loyalty command". */
  holder: string;
  since: string;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly current: DataDirLockHolder,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by the ${current.holder} (pid ${current.pid}, since ${current.since})`,
    );
    this.name = 'DataDirBusyError';
  }
}

export interface DataDirLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): DataDirLockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<DataDirLockHolder>;
    return typeof parsed.pid === 'number'
      ? { pid: parsed.pid, holder: String(parsed.holder ?? 'process'), since: String(parsed.since ?? '?') }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt it. The
 * server and the operator command therefore hold this lock file while they have it open. A lock
 * left by a process that no longer runs (killed, crashed) is taken over.
 */
export function acquireDataDirLock(dataDir: string, holder: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DATA_DIR_LOCK_FILE);
  const mine: DataDirLockHolder = { pid: process.pid, holder, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, JSON.stringify(mine), { flag: 'wx' });
      const release = () => {
        if (readHolder(file)?.pid === process.pid) unlinkSync(file);
        process.off('exit', release);
      };
      process.on('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const current = readHolder(file);
      if (current && current.pid !== process.pid && isAlive(current.pid)) {
        throw new DataDirBusyError(dataDir, current);
      }
      try {
        unlinkSync(file);
      } catch {
        // Another process removed the stale lock first; the next attempt decides.
      }
    }
  }
  throw new Error(`Could not take the lock file ${file}`);
}

/** Who holds the lock now, if a live process does. */
export function dataDirLockHolder(dataDir: string): DataDirLockHolder | undefined {
  const current = readHolder(path.join(dataDir, DATA_DIR_LOCK_FILE));
  return current && isAlive(current.pid) ? current : undefined;
}
