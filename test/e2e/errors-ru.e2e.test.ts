/**
 * Errors are data, said in the seller's language (issue 31 §1): the built CLI under
 * LANG=ru_RU.UTF-8 against a real seller-server says errors of the service (`not_found`, the admin
 * token's `bad_key`), refusals by their reason (`need_next_charge`, `complaint` for auto-delivery)
 * and the SDK's offline checks (a card's SLA, a BIK) in Russian words, with no English sentence;
 * `--json`'s error line and the exit code are the same in English.
 */
import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_CARD, useSellerWorld } from '../helpers/seller-world.ts';

const world = useSellerWorld({ cli: true, lang: 'ru' });

/**
 * Two Latin words of three letters or more in a row: an English sentence (codes are one word:
 * `not_found`). A command to type (`seller cards on 1001 --no-auto`) is not a sentence.
 */
const ENGLISH = /[A-Za-z]{3,} [A-Za-z]{3,}/;
const sentences = (stderr: string): string => stderr.replace(/`?seller [^\n`]*`?/g, '');

/** The first line of stderr. */
const firstLine = (stderr: string): string => stderr.split('\n')[0]!;

describe('errors under LANG=ru_RU.UTF-8', () => {
  it('not_found from the service names the record in Russian; --json and the exit code are those of English', async () => {
    const ru = await world.run(['cards', 'show', '9999']);
    expect(ru.code).toBe(1);
    expect(firstLine(ru.stderr)).toBe('ошибка: not_found: карточки 9999 нет, или она не ваша');
    expect(sentences(ru.stderr)).not.toMatch(ENGLISH);

    const ruJson = await world.run(['cards', 'show', '9999', '--json']);
    const enJson = await world.run(['cards', 'show', '9999', '--json'], { lang: 'en' });
    expect(enJson.code).toBe(ruJson.code);
    const jsonLine = (stderr: string) => stderr.split('\n').find((line) => line.startsWith('{'));
    const withoutRequest = (line: string | undefined) => ({ ...JSON.parse(line!), requestId: undefined });
    expect(withoutRequest(jsonLine(ruJson.stderr))).toEqual(withoutRequest(jsonLine(enJson.stderr)));
    expect(JSON.parse(jsonLine(ruJson.stderr)!)).toMatchObject({ error: 'not_found', detail: { record: 'card', id: '9999' } });
    expect(firstLine(enJson.stderr)).toBe('error: not_found: no card 9999, or it is not yours');
  });

  it("a wrong admin token is said in Russian (exit 4)", async () => {
    const result = await world.run(['sandbox', 'clock'], { env: { ...world.adminEnv, SERVICE_ADMIN_TOKEN: 'not-the-token' } });
    expect(result.code).toBe(4);
    expect(firstLine(result.stderr)).toBe('ошибка: bad_key: это не токен администратора этого сервера');
    expect(sentences(result.stderr)).not.toMatch(ENGLISH);
  });

  it('a refusal is said by its reason: auto-delivery of a card delivered by invite', async () => {
    const card = await world.newCard({ ...SUBSCRIPTION_CARD, active: false });
    const result = await world.run(['cards', 'on', String(card), '--auto']);
    expect(result.code).toBe(1);
    expect(firstLine(result.stderr)).toBe('ошибка: автовыдача работает только для карточек с выдачей логина и пароля или кода (rejected: complaint)');
    expect(sentences(result.stderr)).not.toMatch(ENGLISH);
  });

  it('need_next_charge names nextChargeDay, and is said in Russian', async () => {
    const card = await world.newCard(SUBSCRIPTION_CARD);
    const order = await world.buy(card);
    const result = await world.run(['orders', 'deliver', order]);
    expect(result.code).toBe(1);
    expect(firstLine(result.stderr)).toBe(
      'ошибка: этот заказ выдаётся с датой следующего списания у сервиса: укажите её в --next-charge ГГГГ-ММ-ДД (rejected: need_next_charge)',
    );
    expect(sentences(result.stderr)).not.toMatch(ENGLISH);
    const json = await world.run(['orders', 'deliver', order, '--json']);
    const line = json.stderr.split('\n').find((l) => l.startsWith('{'));
    expect(JSON.parse(line!)).toMatchObject({ error: 'rejected', refusal: { kind: 'need_next_charge', field: 'nextChargeDay', reason: 'required' } });
  });

  it("the SDK's offline checks are said in Russian before any call: a card's SLA, a BIK", async () => {
    const sla = await world.run(['cards', 'create', '--service', 'spotify', '--tariff', 'family', '--type', 'code', '--delivery', 'code', '--sla', '45', '--guarantee', '7', '--price', '390']);
    expect(sla.code).toBe(2);
    expect(firstLine(sla.stderr)).toBe('ошибка: --sla: значение 45 не разрешено');
    expect(sentences(sla.stderr)).not.toMatch(ENGLISH);

    const bik = await world.run(['papers', 'payout', '--method', 'account', '--bik', '12345678', '--account', '40702810000000000001', '--name', 'Иванов Иван']);
    expect(bik.code).toBe(2);
    expect(firstLine(bik.stderr)).toBe('ошибка: --bik: в БИК должно быть 9 цифр, а не 8 (bik_bad)');
    expect(sentences(bik.stderr)).not.toMatch(ENGLISH);
  });
});
