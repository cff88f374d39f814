import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small file system of its own for a test: a tmpfs mounted on a temp dir (needs root, or CAP_SYS_ADMIN). */
export interface SmallFs {
  readonly dir: string;
  /** Fills the file system to the last byte with a file of its own; returns its path (delete it to free). */
  fill(): string;
  /** Mounts it read-only (`true`) or read-write again. */
  readOnly(on: boolean): void;
  /** Unmounts and removes the temp dir. */
  remove(): void;
}

/**
 * Mounts a tmpfs of `sizeMb` on a new temp dir, or returns the reason it could not (not root, no mount
 * permission in a container): the caller skips with it.
 */
export function mountSmallFs(sizeMb: number): SmallFs | string {
  const dir = mkdtempSync(join(tmpdir(), 'xsvc-smallfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0777`, 'tmpfs', dir], {
      stdio: 'pipe',
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const why = (err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message;
    return `cannot mount a tmpfs (${why}): the full-disk and read-only tests need root or CAP_SYS_ADMIN`;
  }
  return {
    dir,
    fill() {
      const path = join(dir, `fill-${Date.now()}`);
      const fd = openSync(path, 'w');
      const chunk = Buffer.alloc(64 * 1024);
      try {
        // Down to single bytes, so that not even a page is left.
        for (let size = chunk.length; size >= 1; size = Math.floor(size / 2)) {
          for (;;) {
            try {
              writeSync(fd, chunk, 0, size);
            } catch (err) {
              if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw err;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
      return path;
    },
    readOnly(on) {
      execFileSync('mount', ['-o', `remount,${on ? 'ro' : 'rw'}`, dir], { stdio: 'pipe' });
    },
    remove() {
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        // Still busy (a process left behind): lazily, so the temp dir goes once it is free.
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
