/**
 * Reading what a command is given as a file: `--file PATH`, `--description-file PATH`, `--payload
 * PATH` and the like, with `-` for stdin where the flag allows it. One wording and one exit code
 * for a file that cannot be read: a usage error (exit 2) naming the flag, the path and why.
 */
import type { Deps } from './deps.ts';
import { UsageError } from './errors.ts';
import { readAllBytes } from './io.ts';

const WHY: Record<string, string> = { ENOENT: 'no such file', EISDIR: 'it is a directory', EACCES: 'permission denied' };

/** A file's bytes; an unreadable file is a usage error naming the flag (when given), the path and why. */
export async function readInputFile(path: string, flag?: string): Promise<Buffer> {
  // Loaded here, not with the module: most commands never read a file.
  const { readFile } = await import('node:fs/promises');
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === undefined ? (error as Error).message : `${WHY[code] ?? (error as Error).message} (${code})`;
    throw new UsageError(`${flag === undefined ? '' : `${flag}: `}cannot read ${path}: ${why}`);
  }
}

/** A file's bytes, or stdin's for `-`. */
export async function readInput(deps: Pick<Deps, 'io'>, path: string, flag?: string): Promise<Buffer> {
  return path === '-' ? readAllBytes(deps.io.stdin) : readInputFile(path, flag);
}

/** A file's text, or stdin's for `-` (UTF-8). */
export async function readTextInput(deps: Pick<Deps, 'io'>, path: string, flag?: string): Promise<string> {
  return (await readInput(deps, path, flag)).toString('utf8');
}
