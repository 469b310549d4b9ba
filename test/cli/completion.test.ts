/**
 * Shell completion (cli/completion.ts): `seller __complete <words…>` prints the candidates for the
 * last word (nouns, verbs and aliases, options with the globals, an option's or an argument's
 * choices), loading only the noun in question and never calling the server; `seller completion
 * bash` prints a script that bash runs on Tab (tested in a real bash against the built binary).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOUNS } from '../../cli/nouns.ts';
import { ensureBuilt, ROOT } from '../helpers/cli.ts';
import { ProfileStore } from '../../cli/lib/config.ts';
import { bufferIO, run, tempConfigDir } from './helpers.ts';

async function candidates(...words: string[]): Promise<string[]> {
  const client = () => {
    throw new Error('completion must not make a client');
  };
  const result = await run(['__complete', ...words], bufferIO(), { client });
  expect(result.code).toBe(0);
  expect(result.err).toBe('');
  return result.out === '' ? [] : result.out.trimEnd().split('\n');
}

describe('seller __complete', () => {
  it('completes nouns, then a noun’s verbs and their aliases', async () => {
    expect(await candidates('')).toEqual(NOUNS.map((n) => n.name).sort());
    expect(await candidates('ca')).toEqual(['cards', 'catalog']);
    expect(await candidates('cards', '')).toEqual(['copy', 'create', 'delete', 'image', 'list', 'ls', 'off', 'on', 'real', 'rm', 'show', 'test', 'update']);
    expect(await candidates('cards', 'l')).toEqual(['list', 'ls']);
    expect(await candidates('--json', '--profile', 'shop', 'ord')).toEqual(['orders']);
    expect(await candidates('cards', 'image', '')).toEqual(['remove', 'rm', 'set']);
  });

  it('completes a command’s options with the global ones, and an option’s choices', async () => {
    const flags = await candidates('cards', 'create', '--');
    expect(flags).toEqual(expect.arrayContaining(['--service', '--tariff', '--type', '--delivery', '--price', '--json', '--profile', '--base-url', '--help']));
    expect(flags).not.toContain('--version');
    expect(await candidates('cards', 'create', '--de')).toEqual(['--delivery', '--description', '--description-file']);
    expect(await candidates('cards', 'create', '--type', '')).toEqual(['account', 'code', 'credits', 'subscription']);
    expect(await candidates('cards', 'create', '--service', 'spotify', '--type', 'c')).toEqual(['code', 'credits']);
    expect(await candidates('cards', 'create', '--type=co')).toEqual([]); // a value given inline is not completed as a flag
    expect(await candidates('--')).toEqual(['--base-url', '--help', '--json', '--lang', '--profile', '--utc', '--version']);
  });

  it('completes an argument’s choices, and nothing for values only the server knows', async () => {
    expect(await candidates('completion', '')).toEqual(['bash', 'fish', 'zsh']);
    expect(await candidates('cards', 'show', '')).toEqual([]);
    expect(await candidates('orders', 'show', 'ord_1', '')).toEqual([]);
    expect(await candidates('--profile', '')).toEqual([]); // no profile saved
    expect(await candidates('nope', '')).toEqual([]);
    expect(await candidates('cards', '--', '')).toEqual([]);
  });

  it('completes --profile with the saved profiles', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const store = new ProfileStore({ SELLER_CONFIG_DIR: dir });
      store.update('shop', { baseUrl: 'http://127.0.0.1:8787' });
      store.update('staging', { baseUrl: 'http://127.0.0.1:8788' });
      store.update('other', { baseUrl: 'http://127.0.0.1:8789' });
      const result = await run(['__complete', 'keys', 'list', '--profile', 's'], bufferIO({ env: { SELLER_CONFIG_DIR: dir } }));
      expect(result.out.trimEnd().split('\n')).toEqual(['shop', 'staging']);
    } finally {
      cleanup();
    }
  });

  it('prints a script for each shell, and refuses another shell (exit 2)', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const result = await run(['completion', shell], bufferIO());
      expect(result.code, shell).toBe(0);
      expect(result.out, shell).toContain('seller __complete');
    }
    const wrong = await run(['completion', 'powershell'], bufferIO());
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/'powershell' is invalid for argument 'shell'\. Allowed choices are bash, zsh, fish/);
  });
});

describe('the bash script', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('completes on Tab in a real bash, through the built `seller`', () => {
    const dir = mkdtempSync(join(tmpdir(), 'seller-completion-'));
    try {
      // `seller` on PATH, as npm links it.
      writeFileSync(join(dir, 'seller'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin/seller.js')}" "$@"\n`, { mode: 0o755 });
      const tab = (...words: string[]) =>
        execFileSync(
          'bash',
          ['-c', 'source <(seller completion bash); COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _seller_complete; printf "%s\\n" "${COMPREPLY[@]}"', 'bash', 'seller', ...words],
          { encoding: 'utf8', env: { PATH: `${dir}:${process.env.PATH}`, SELLER_CONFIG_DIR: dir } },
        )
          .split('\n')
          .filter(Boolean);
      expect(tab('ca')).toEqual(['cards', 'catalog']);
      expect(tab('cards', 'create', '--type', 'sub')).toEqual(['subscription']);
      expect(tab('orders', 'watch', '--st')).toEqual(['--state-file']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
