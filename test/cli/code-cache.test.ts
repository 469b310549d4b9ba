/**
 * The built `seller` keeps V8's code cache in the user's cache directory, one file per command noun
 * (scripts/cli-loader.mjs): a typo or an option's value never names a cache file of its own.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLETE_WORD } from '../../cli/complete-word.ts';
import { NOUNS } from '../../cli/nouns.ts';
import { ensureBuilt } from '../helpers/cli.ts';

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'seller-code-cache-'));

beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function seller(args: string[], cache: string): Promise<number> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(root, 'bin/seller.js'), ...args],
      { cwd: root, env: { PATH: process.env.PATH, SELLER_CONFIG_DIR: join(dir, 'config'), SELLER_CODE_CACHE_DIR: cache, NO_COLOR: '1', LANG: 'C' } },
      (error) => done(error ? Number(error.code ?? 1) : 0),
    );
  });
}

describe('the code cache of the built seller', () => {
  it('knows every noun of the program, help and the completion word', () => {
    const loader = readFileSync(join(root, 'cli/dist/seller.cjs'), 'utf8');
    const listed = JSON.parse(/const nouns = new Set\((\[.*?\])\);/.exec(loader)![1]!) as string[];
    expect(listed.sort()).toEqual([...NOUNS.map((noun) => noun.name), 'help', COMPLETE_WORD].sort());
  });

  it('names a cache by the noun invoked, wherever it stands; any other word shares one', async () => {
    const cache = join(dir, 'cache');
    expect(await seller(['--profile', 'work', 'cards', '--help'], cache)).toBe(0);
    expect(await seller(['ordres'], cache)).toBe(2);
    expect(await seller(['--version'], cache)).toBe(0);
    const files = readdirSync(cache).map((file) => /-([^-]+|work-mode|__complete)\.cache$/.exec(file)?.[1]);
    expect(files.sort()).toEqual(['_', 'cards']);
  });
});
