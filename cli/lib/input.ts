/**
 * Reading what a command is given as a file: `--file PATH`, `--description-file PATH`, `--payload
 * PATH` and the like, with `-` for stdin where the flag allows it. One wording and one exit code
 * for a file that cannot be read: a usage error (exit 2) naming the flag, the path and why.
 */
import type { Deps } from './deps.ts';
import { UsageError } from './errors.ts';
import { readAllBytes } from './io.ts';
import { t, tOr } from '../i18n/index.ts';

/** Why a file cannot be read, in words for the codes people meet (`input.why.*`). */
const whyOf = (code: string, message: string): string => tOr(`input.why.${code}`, message);

/** A file's bytes; an unreadable file is a usage error naming the flag (when given), the path and why. */
export async function readInputFile(path: string, flag?: string): Promise<Buffer> {
  // Loaded here, not with the module: most commands never read a file.
  const { readFile } = await import('node:fs/promises');
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === undefined ? (error as Error).message : t('input.withCode', { why: whyOf(code, (error as Error).message), code });
    throw new UsageError(flag === undefined ? t('input.cannotRead', { path, why }) : t('input.cannotReadFlag', { flag, path, why }));
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
