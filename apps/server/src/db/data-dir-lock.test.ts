import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireDataDirLock,
  DATA_DIR_LOCK_FILE,
  DataDirBusyError,
  processStartTime,
} from './data-dir-lock.js';

let dataDir: string;
const lockFile = () => path.join(dataDir, DATA_DIR_LOCK_FILE);
const writeLock = (holder: object) => writeFileSync(lockFile(), JSON.stringify(holder));

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-lock-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded database lock file', () => {
  it('refuses while the process that wrote it still runs, and says how to recover', () => {
    // The parent process stands in for a running server: alive, not this process, same start time.
    writeLock({
      pid: process.ppid,
      holder: 'server',
      since: '2026-11-22T08:00:00.000Z',
      processStart: processStartTime(process.ppid),
    });

    expect(() => acquireDataDirLock(dataDir, 'server')).toThrow(DataDirBusyError);
    expect(() => acquireDataDirLock(dataDir, 'server')).toThrow(
      `in use by the server (pid ${process.ppid}, since 2026-11-22T08:00:00.000Z). If no Roadpass server or loyalty command is running, delete ${lockFile()} and start again`,
    );
  });

  it('takes over a lock whose pid now belongs to an unrelated process (issue 10, finding 11)', () => {
    // Same pid, alive, but started at another moment: not the process that wrote the lock.
    writeLock({ pid: process.ppid, holder: 'server', since: '2026-11-01T08:00:00.000Z', processStart: '1' });

    const lock = acquireDataDirLock(dataDir, 'server');

    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({
      pid: process.pid,
      holder: 'server',
      processStart: processStartTime(process.pid),
    });
    lock.release();
  });

  it('takes over a lock left by a process that no longer runs', () => {
    writeLock({ pid: 2 ** 22 + 17, holder: 'loyalty command', since: '2026-11-01T08:00:00.000Z' });
    const lock = acquireDataDirLock(dataDir, 'server');
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
    expect(() => readFileSync(lockFile())).toThrow();
  });

  it('reads a start time for a running process on Linux', () => {
    expect(processStartTime(process.pid)).toMatch(/^\d+$/);
    expect(processStartTime(2 ** 22 + 17)).toBeUndefined();
  });
});
