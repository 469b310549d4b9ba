/**
 * The webhooks part of a Russian seller's day, as the built CLI (dist/) under LANG=ru_RU.UTF-8
 * against a real seller-server (local hooks allowed): `hooks set` keeps the secret in a file,
 * `hooks listen` receives and verifies the service's signed test delivery, `hooks show`,
 * `hooks deliveries` and `hooks verify` speak Russian; `--json` is the same in both languages.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSellerWorld } from '../helpers/seller-world.ts';
import { freePort, waitFor } from '../helpers/wait.ts';

/** A seller whose `seller` runs in Russian, on a server that delivers hooks to 127.0.0.1, and a work directory. */
const world = useSellerWorld({ cli: true, server: { allowLocalHooks: true }, dir: 'hooks-ru-', lang: 'ru' });

describe('seller hooks under LANG=ru_RU.UTF-8', () => {
  it('subscribes, receives and verifies the test delivery, and shows it all in Russian', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    const { dir } = world;
    const secretFile = join(dir, 'webhook.secret');

    const set = await world.run(['hooks', 'set', '--url', url, '--event', 'order.paid', '--secret-file', secretFile]);
    expect(set.code).toBe(0);
    expect(set.stderr).toContain(`${url} подписан на order.paid.`);
    expect(set.stderr).toContain(`Секрет подписи — в ${secretFile} (права 0600). Больше он не показывается.`);
    expect(readFileSync(secretFile, 'utf8')).toMatch(/^whsec_/);

    const listen = world.spawn(['hooks', 'listen', '--port', String(port), '--secret-file', secretFile, '--count', '1']);
    let out = '';
    let err = '';
    listen.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    listen.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
    const closed = new Promise<number | null>((resolve) => listen.on('close', resolve));
    // The lines come in separate writes: wait for the last of them.
    await waitFor('the listener', () => err.includes('Проверяю подписи'), { ms: 15_000, every: 50 }).catch(() => undefined);
    expect(err).toContain(`слушаю http://127.0.0.1:${port}`);
    expect(err).toContain(`Проверяю подписи секретом из ${secretFile}.`);

    const test = await world.run(['hooks', 'test']);
    expect(test.code).toBe(0);
    expect(test.stdout).toMatch(/^Отправлено тестовое событие order\.paid: доставка \S+\.\n$/);
    expect(test.stderr).toContain('Следите за ней: `seller hooks deliveries`.');

    expect(await closed).toBe(0);
    // Piped: tab-separated, the time in the user's zone with the zone shown, the verdict in words.
    const [received] = out.trim().split('\n').map((line) => line.split('\t'));
    expect(received).toEqual([expect.stringMatching(/^\d\d\.\d\d\.\d{4}, \d\d:\d\d (GMT|UTC)/), 'order.paid', expect.any(String), '#1', 'верна (тест)']);

    const show = await world.run(['hooks', 'show']);
    expect(show.stdout).toMatch(/^Адрес:\s+http:\/\/127\.0\.0\.1:\d+\/$/m);
    expect(show.stdout).toMatch(/^События:\s+order\.paid$/m);
    expect(show.stdout).toMatch(/^Статус:\s+активна$/m);

    const deliveries = await world.run(['hooks', 'deliveries']);
    expect(deliveries.stdout.split('\n')[0]).toBe('СОБЫТИЕ\tДОСТАВКА\tПОПЫТОК\tПОСЛЕДНИЙ СТАТУС\tПОСЛЕДНЯЯ ОШИБКА\tСЛЕДУЮЩАЯ ПОПЫТКА\tДОСТАВЛЕНО\tТЕСТ');
    expect(deliveries.stdout.split('\n')[1]).toMatch(/^order\.paid\t\S+\t1\t200\t-\t-\t\d\d\.\d\d\.\d{4}, \d\d:\d\d \S+\tтест$/);

    // A recorded body without its headers: exit 1, the reason code, and the hint in Russian.
    writeFileSync(join(dir, 'body.json'), '{"event":"order.paid"}');
    const verify = await world.run(['hooks', 'verify', '--payload', join(dir, 'body.json'), '--secret-file', secretFile]);
    expect(verify.code).toBe(1);
    expect(verify.stderr).toMatch(/^ошибка: missing_header: /m);
    expect(verify.stderr).toMatch(/^подсказка: передайте x-service-\S+ через --header, --signature\/--timestamp или --headers-file$/m);

    const [english, russian] = [await world.run(['--json', 'hooks', 'show'], { lang: 'en' }), await world.run(['--json', 'hooks', 'show'])];
    expect(russian.stdout).toBe(english.stdout);
    expect(JSON.parse(russian.stdout)).toMatchObject({ status: 'active', events: ['order.paid'] });
  }, 90_000);
});
