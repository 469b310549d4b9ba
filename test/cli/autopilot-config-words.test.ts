/**
 * A wrong autopilot configuration, said in the seller's language (cli/commands/autopilot-config-words.ts):
 * the autopilot's own checks and the file's from the catalogue, zod's standard checks by zod's Russian
 * locale, the first line too; the exit code and the paths are those of English. The SDK's issues carry
 * what is needed as data (`check`, `values`, zod's `issue`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AutopilotConfigError, parseAutopilotConfig } from '../../sdk/autopilot/index.ts';
import { bufferIO, run, tempConfigDir } from './helpers.ts';

let dir: ReturnType<typeof tempConfigDir>;
beforeEach(() => {
  dir = tempConfigDir();
});
afterEach(() => dir.cleanup());

const WRONG = [
  'deliver:',
  '  - match: { productType: Sub }',
  '    action: { command: "x", hook: "https://a.example" }',
  '    note: "пишите на ivan@mail.ru"',
  'backlog: { above: 3, restoreAt: 5, set: {} }',
  'pollSeconds: -1',
  'extra: 1',
].join('\n');

const autopilot = (file: string, lang: string) =>
  run(['autopilot', '--config', file], bufferIO({ env: { SELLER_CONFIG_DIR: dir.dir, SERVICE_API_KEY: 'service_live_x', SERVICE_BASE_URL: 'http://127.0.0.1:9', LANG: lang } }));

describe('a wrong autopilot configuration', () => {
  it('the SDK gives each problem as data: our checks by id, the standard ones as zod’s issue', () => {
    const error = (() => {
      try {
        parseAutopilotConfig({ deliver: [{ match: {}, action: {} }], pollSeconds: -1, extra: 1 });
      } catch (e) {
        return e;
      }
    })() as AutopilotConfigError;
    expect(error).toBeInstanceOf(AutopilotConfigError);
    expect(error.issues).toContainEqual(expect.objectContaining({ path: 'deliver[0].action', check: 'commandOrHook' }));
    expect(error.issues).toContainEqual(expect.objectContaining({ path: 'pollSeconds', issue: expect.objectContaining({ code: 'too_small', minimum: 0 }) }));
    expect(error.issues).toContainEqual(expect.objectContaining({ path: '(top level)', issue: expect.objectContaining({ code: 'unrecognized_keys', keys: ['extra'] }) }));
    for (const issue of error.issues) expect(issue.issue?.['input']).toBeUndefined();
  });

  it('is said in Russian, first line included, with the paths and the exit code of English', async () => {
    const file = join(dir.dir, 'autopilot.yaml');
    writeFileSync(file, WRONG);
    const ru = await autopilot(file, 'ru_RU.UTF-8');
    const en = await autopilot(file, 'C');
    expect(ru.code).toBe(2);
    expect(ru.code).toBe(en.code);
    const lines = ru.err.trim().split('\n');
    expect(lines[0]).toBe(`ошибка: ${file}: 7 ошибок`);
    expect(lines).toContain('  deliver[0].action: укажите что-то одно: command или hook');
    expect(lines).toContain('  deliver[0].note: в тексте адрес e-mail: маркетплейс его не пропустит');
    expect(lines).toContain('  backlog.restoreAt: restoreAt не может быть больше above');
    expect(lines.find((line) => line.startsWith('  pollSeconds: '))).toMatch(/^ {2}pollSeconds: Слишком маленькое значение/);
    expect(lines.find((line) => line.startsWith('  (весь файл): '))).toMatch(/"extra"/);
    for (const line of lines) expect(line).not.toMatch(/[a-z]{4,} [a-z]{4,}/);
    // The same paths in English, in the same order.
    const paths = (text: string) => text.split('\n').filter((line) => line.startsWith('  ')).map((line) => line.trim().split(': ')[0]);
    expect(paths(ru.err).map((path) => (path === '(весь файл)' ? '(top level)' : path))).toEqual(paths(en.err));
    expect(en.err.split('\n')[0]).toBe(`error: ${file}: 7 errors`);
    expect(en.err).toContain('  deliver[0].action: give exactly one of command or hook');
    expect(en.err).toContain('  pollSeconds: Too small: expected number to be >0');
  });

  it('notify.telegram.orderUrl: an http(s) URL with {order}, else said by its check in English and Russian', async () => {
    const config = (orderUrl: string) => ({ notify: { telegram: { chats: [1], orderUrl } } });
    expect(parseAutopilotConfig(config('http://127.0.0.1:8080/sandbox?order={order}')).notify?.telegram?.orderUrl).toBe('http://127.0.0.1:8080/sandbox?order={order}');
    const issuesOf = (orderUrl: string) => {
      try {
        parseAutopilotConfig(config(orderUrl));
      } catch (e) {
        return (e as AutopilotConfigError).issues;
      }
      return [];
    };
    expect(issuesOf('https://shop.example/orders')).toEqual([expect.objectContaining({ path: 'notify.telegram.orderUrl', check: 'orderUrlPlace' })]);
    expect(issuesOf('shop.example/orders/{order}')).toEqual([expect.objectContaining({ path: 'notify.telegram.orderUrl', check: 'orderUrl' })]);
    expect(issuesOf('ftp://shop.example/{order}')).toEqual([expect.objectContaining({ path: 'notify.telegram.orderUrl', check: 'orderUrl' })]);
    expect(issuesOf('http://localhost:8080/sandbox?order={order}')).toEqual([expect.objectContaining({ path: 'notify.telegram.orderUrl', check: 'orderUrlHost', values: { host: 'localhost' } })]);
    const file = join(dir.dir, 'phone.yaml');
    writeFileSync(file, 'notify:\n  telegram:\n    chats: [1]\n    orderUrl: https://shop.example/orders\n');
    const ru = await autopilot(file, 'ru_RU.UTF-8');
    expect(ru.code).toBe(2);
    expect(ru.err).toContain('  notify.telegram.orderUrl: поставьте {order} туда, где должен быть id заказа, например https://example.com/orders/{order}');
    writeFileSync(file, 'notify:\n  telegram:\n    chats: [1]\n    orderUrl: "orders/{order}"\n');
    const en = await autopilot(file, 'C');
    expect(en.code).toBe(2);
    expect(en.err).toContain('  notify.telegram.orderUrl: an http(s) URL such as https://example.com/orders/{order}');
    writeFileSync(file, 'notify:\n  telegram:\n    chats: [1]\n    orderUrl: http://localhost:8080/sandbox?order={order}\n');
    expect((await autopilot(file, 'ru_RU.UTF-8')).err).toContain('  notify.telegram.orderUrl: Telegram не принимает ссылки на localhost: укажите 127.0.0.1 или доменное имя');
  });

  it('a file that is missing or not YAML: the file’s own checks, in Russian', async () => {
    const missing = await autopilot(join(dir.dir, 'nope.yaml'), 'ru_RU.UTF-8');
    expect(missing.code).toBe(2);
    expect(missing.err.split('\n').slice(0, 2)).toEqual([`ошибка: ${join(dir.dir, 'nope.yaml')}: 1 ошибка`, '  (файл): нет такого файла']);
    const named = await autopilot(join(dir.dir, 'autopilot.txt'), 'ru_RU.UTF-8');
    expect(named.err).toContain('  (файл): назовите файл .json, .yaml или .yml');
    const broken = join(dir.dir, 'broken.yaml');
    writeFileSync(broken, 'deliver: [\n');
    expect((await autopilot(broken, 'ru_RU.UTF-8')).err).toMatch(/\n {2}\(файл\): не YAML: /);
  });
});
