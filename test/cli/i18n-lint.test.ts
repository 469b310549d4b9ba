/**
 * The hard-coded-text lint (`i18next-cli lint` with scripts/i18n-lint-plugin.mjs) finds a message
 * written into CLI code instead of the catalogue, passes one that goes through t(), and honours
 * an in-place exception. Runs the real linter over a small project of its own.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const dir = join(root, `.vitest-i18n-lint-${process.pid}`);
const CLI = join(root, 'node_modules/i18next-cli/dist/esm/cli.js');

beforeAll(() => {
  mkdirSync(join(dir, 'cli/locales'), { recursive: true });
  writeFileSync(join(dir, 'cli/locales/en.json'), JSON.stringify({ hello: 'Hello, {{name}}' }));
  writeFileSync(join(dir, 'cli/locales/ru.json'), JSON.stringify({ hello: 'Привет, {{name}}' }));
  writeFileSync(
    join(dir, 'i18next.config.mjs'),
    `import { defineConfig } from 'i18next-cli';
import { hardcodedStrings } from ${JSON.stringify(join(root, 'scripts/i18n-lint-plugin.mjs'))};
export default defineConfig({ locales: ['en', 'ru'], extract: { input: ['cli/**/*.ts'], output: 'cli/locales/{{language}}.json', functions: ['t'] }, plugins: [hardcodedStrings()] });
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lint(source: string) {
  writeFileSync(join(dir, 'cli/command.ts'), source);
  const result = spawnSync(process.execPath, [CLI, 'lint'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

describe('i18next-cli lint over CLI code', () => {
  it('fails on a description, a line for people and a table header written in the code', () => {
    const { code, out } = lint(`
import { say } from './output.ts';
export const register = (noun, io, id) => {
  noun.command('list').description('List your API keys');
  say(io, \`Revoked key \${id}.\`);
  return [{ header: 'LAST USED', value: (k) => k.lastUsedAt }];
};
`);
    expect(code).toBe(1);
    expect(out).toContain('List your API keys');
    expect(out).toContain('Revoked key');
    expect(out).toContain('LAST USED');
  });

  it('passes messages from the catalogue, and a line excepted in place', () => {
    const { code, out } = lint(`
import { t } from './i18n.ts';
import { say } from './output.ts';
export const register = (noun, io, name) => {
  noun.command('list').description(t('hello', { name }));
  // i18next-instrument-ignore-next-line: a protocol token, not text for a person
  say(io, 'Content-Type: application/json');
};
`);
    expect(out).not.toContain('hardcoded');
    expect(code).toBe(0);
  });

  it('fails on a placeholder the English message does not have', () => {
    const { code, out } = lint(`
import { t } from './i18n.ts';
export const hi = (who) => t('hello', { who });
`);
    expect(code).toBe(1);
    expect(out).toMatch(/interpolation/i);
  });
});
