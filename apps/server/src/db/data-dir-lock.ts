import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file in DATA_DIR that says which process has the embedded database open. */
export const DATA_DIR_LOCK_FILE = 'roadpass.lock';

export interface DataDirLockHolder {
  pid: number;
  /** What holds it, e.g. "server" or "loyalty command". */
  holder: string;
  since: string;
  /**
   * The holder's start time as the kernel counts it (/proc/<pid>/stat, field 22), where the system has
   * /proc. A pid is reused by unrelated processes after the holder died; the start time is not.
   */
  processStart?: string | undefined;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly current: DataDirLockHolder,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by the ${current.holder} (pid ${current.pid}, since ${current.since}). ` +
        `If no Roadpass server or loyalty command is running, delete ${path.join(dataDir, DATA_DIR_LOCK_FILE)} and start again`,
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

/** A process's start time in clock ticks since boot (Linux /proc), or undefined where there is none. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

/**
 * Whether the lock's holder still runs: the pid is alive and, where the start time can be read, it is
 * the same process that wrote the lock (not an unrelated one that got the pid later).
 */
function holderRuns(current: DataDirLockHolder): boolean {
  if (!isAlive(current.pid)) return false;
  if (current.processStart === undefined) return true;
  const now = processStartTime(current.pid);
  return now === undefined || now === current.processStart;
}

function readHolder(file: string): DataDirLockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<DataDirLockHolder>;
    return typeof parsed.pid === 'number'
      ? {
          pid: parsed.pid,
          holder: String(parsed.holder ?? 'process'),
          since: String(parsed.since ?? '?'),
          processStart: typeof parsed.processStart === 'string' ? parsed.processStart : undefined,
        }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt it. The
 * server and the operator command therefore hold this lock file while they have it open. A lock
 * left by a process that no longer runs (killed, crashed), or whose pid now belongs to another
 * process, is taken over.
 */
export function acquireDataDirLock(dataDir: string, holder: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DATA_DIR_LOCK_FILE);
  const mine: DataDirLockHolder = {
    pid: process.pid,
    holder,
    since: new Date().toISOString(),
    processStart: processStartTime(process.pid),
  };
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
      if (current && current.pid !== process.pid && holderRuns(current)) {
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
  return current && holderRuns(current) ? current : undefined;
}
