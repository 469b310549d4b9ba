/**
 * The autopilot's lines in the seller's language (cli/commands/autopilot-lines.ts): every form the
 * CLI re-says is read from a line as the SDK writes it, and the English catalogue gives back that
 * very line (English output never changes); in Russian the values are shown as Russians write
 * them; a line of a form not known passes through as it came.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FORMS, eventMessage, readLine } from '../../cli/commands/autopilot-lines.ts';
import { countsLine, eventLine } from '../../cli/commands/autopilot.ts';
import { useTimeZone } from '../../cli/i18n/format.ts';
import { t, useLanguage } from '../../cli/i18n/index.ts';
import type { AutopilotEvent } from '../../sdk/autopilot/events.ts';
import { missedMessage } from '../../sdk/autopilot/rules/deadline.ts';
import { movedMessage } from '../../sdk/autopilot/rules/moved.ts';

const at = '2026-11-25T09:00:05.000Z';
const ev = (event: string, message: string, extra: Partial<AutopilotEvent> = {}): AutopilotEvent => {
  const [rule, type] = event.split('.') as [AutopilotEvent['rule'], string];
  return { at, rule, type, message, ...extra };
};

/** One line of every form, as the SDK (sdk/autopilot) writes it. */
const SAMPLES: AutopilotEvent[] = [
  ev('deliver.would-deliver', 'ord_1 (#12 subscription): would run its command and deliver (subs)'),
  ev('deliver.would-deliver', 'ord_1 (#12 account): would call its hook and deliver (deliver#1)'),
  ev('deliver.delivered', 'ord_1 (#12 subscription) delivered by subs'),
  ev('deliver.delivered', 'ord_1 (#12 subscription) delivered by subs (the service filtered the note: contacts)'),
  ev('deliver.note-withheld', 'ord_1: the note holds a contact (email, phone) and is not sent'),
  ev('deliver.failed', 'ord_1: its rule subs is no longer in the config; deliver it by hand'),
  ev('deliver.failed', 'ord_1: not delivered, the command failed with exit code 3; deliver it by hand'),
  ev('deliver.skipped', 'ord_1: not delivered, the order moved on (cancelled or refunded meanwhile)'),
  ev('deliver.skipped', 'ord_1: not delivered, it is cancelled now'),
  ev('deliver.refused', 'ord_1: not delivered, need_next_charge: the next charge day is required', { detail: { refusal: 'need_next_charge' } }),
  ev('deliver.retrying', 'ord_1: delivery failed (connect ECONNREFUSED 127.0.0.1:1); trying again next round'),
  ev('deliver.error', 'ord_1: cannot read it to resume its delivery (server failed); trying again next round'),
  ev('deliver.error', 'ord_1: something broke'),
  ev('deliver.resumed', 'ord_1: resuming its delivery from step ready (now awaiting_delivery)'),
  ev('deliver.already-delivered', 'ord_1 was already delivered before the restart'),
  ev('deadline.warned', 'ord_1 (#12) must be delivered within 12 min (by 2026-11-25T09:12:00.000Z)'),
  ev('deadline.warned', 'ord_1 (#12) is past its delivery deadline (2026-11-25T08:00:00.000Z)'),
  ev('deadline.dispute', 'ord_1 (#12) is disputed: answer the dispute'),
  ev('deadline.missed', 'ord_1 (#12) missed its delivery deadline 2026-11-25T08:00:00.000Z with no warning given (the autopilot was not running, or the clock jumped)'),
  ev('orders.refunded', 'ord_1 (#12) was refunded: its delivery deadline 2026-11-25T08:00:00.000Z passed before it was delivered'),
  ev('orders.refunded', 'ord_1 (#12) was refunded to the buyer (a dispute or the marketplace)'),
  ev('orders.cancelled', 'ord_1 (#12) was cancelled by the buyer'),
  ev('orders.disputed', 'ord_1 (#12) is disputed by the buyer: answer the dispute (seller orders dispute-reply ord_1)'),
  ev('stock.notify-failed', 'the stock notification failed: the command timed out after 10 s'),
  ev('stock.error', '#12: cannot read the card (not found)'),
  ev('stock.error', '#12: could not switch auto-delivery back on (rate)'),
  ev('stock.low', '#12: 1 free unit left (alert at 3)'),
  ev('stock.low', '#12: 2 free units left (alert at 3)'),
  ev('stock.would-reenable', '#12: refilled (5 free): would switch auto-delivery back on'),
  ev('stock.reenabled', '#12: refilled (5 free): auto-delivery is on again'),
  ev('stock.out', '#12: out of stock, auto-delivery is off until a refill'),
  ev('reprice.error', '#12: cannot read the card or its usual price (rate)'),
  ev('reprice.error', '#12: price not changed (rate)'),
  ev('reprice.error', '#12: the audit log could not be written (EACCES)'),
  ev('reprice.repriced', '#12: 1500 → 1299 RUB (usual 1250, floor 1000, ceiling 2000; toward the usual price)'),
  ev('reprice.would-reprice', '#12: 500 → 400 RUB (usual 325, floor 400, ceiling 900; stopped at the floor)'),
  ev('replies.error', 'ord_1: cannot read its messages (rate)'),
  ev('replies.error', 'ord_1: reply failed (rate); trying again on its next change'),
  ev('replies.error', 'cannot list the questions (rate)'),
  ev('replies.error', 'question q_1: not answered (rate)'),
  ev('replies.capped', 'ord_1: already answered 1 time(s); this message is left to you'),
  ev('replies.capped', 'ord_1: already answered 5 time(s); this message is left to you'),
  ev('replies.would-reply', 'ord_1: would answer with greeting'),
  ev('replies.replied', 'ord_1: answered with greeting'),
  ev('replies.refused', 'ord_1: reply refused (contacts)'),
  ev('replies.would-answer', 'question q_1 on #12: would answer with faq'),
  ev('replies.answered', 'question q_1 on #12: answered with faq'),
  ev('backlog.would-engage', '7 open orders: would set the work mode'),
  ev('backlog.would-restore', '1 open orders: would restore the work mode'),
  ev('backlog.engaged', '7 open orders (more than 5): work mode set to {"doNotDisturb":true}'),
  ev('backlog.restored', '2 open orders: work mode restored to {"doNotDisturb":false}'),
  ev('backlog.error', 'could not set the work mode: rate; trying again next round'),
  ev('backlog.error', 'could not restore the work mode: rate; trying again next round'),
  ev('webhooks.event', 'order.paid (dlv_1): polling now'),
  ev('webhooks.refused', 'a delivery was refused: signature (wrong secret, or not from the marketplace)'),
  ev('webhooks.listening', 'listening for webhook deliveries at http://127.0.0.1:4000/hooks (polling stays the source)'),
  ev('autopilot.started', 'autopilot started: deliver, stock; first run: every order is looked at once'),
  ev('autopilot.started', 'autopilot started (dry run: nothing is changed): deliver; resuming from 2026-11-25T08:00:00.000Z'),
  ev('autopilot.stopped', 'autopilot stopped; everything in progress was finished and the state saved'),
  ev('autopilot.error', 'cannot list the disputed orders (rate); the deadline guard and the backlog see them when they change'),
  ev('autopilot.error', 'a timed rule failed: boom'),
  ev('autopilot.poll-failed', 'polling failed (connection); retrying in 4 s'),
];

afterEach(async () => {
  await useLanguage('en');
  useTimeZone({});
});

describe('autopilot lines', () => {
  it('reads every sample, and every form has a sample', () => {
    const used = new Set(SAMPLES.map((event) => readLine(event)?.form));
    expect(SAMPLES.filter((event) => !readLine(event)).map((e) => e.message)).toEqual([]);
    expect(FORMS.filter((form) => !used.has(form)).map((form) => form.event + ' ' + form.key)).toEqual([]);
  });

  it('the English catalogue gives back the line the SDK wrote, form by form', () => {
    for (const event of SAMPLES) {
      const { form, values } = readLine(event)!;
      const raw = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v ?? '']));
      const options = raw.count !== undefined ? { ...raw, count: Number(raw.count) } : raw;
      expect(t(`autopilot.events.${form.key}`, options), event.message).toBe(event.message);
      expect(eventMessage(event)).toBe(event.message);
    }
  });

  it('says every form in Russian, with no English form left', async () => {
    await useLanguage('ru');
    // `{{id}}: {{reason}}` has no words of its own: the SDK's reason stays as it came.
    for (const event of SAMPLES.filter((e) => readLine(e)!.form.key !== 'orderError')) {
      const text = eventMessage(event);
      expect(text, event.message).not.toBe(event.message);
      expect(text).toMatch(/[а-яё]/i);
      expect(text).not.toMatch(/\{\{/);
    }
  });

  it('shows money, times, plurals and refusals as Russians read them', async () => {
    await useLanguage('ru');
    useTimeZone({ tz: 'Europe/Moscow' });
    const say = (message: string, event: string, extra?: Partial<AutopilotEvent>) => eventMessage(ev(event, message, extra));
    expect(say('#12: 1500 → 1299 RUB (usual 1250, floor 1000, ceiling 2000; toward the usual price)', 'reprice.repriced')).toBe(
      '№12: 1\u00a0500\u00a0₽ → 1\u00a0299\u00a0₽ (обычная цена 1\u00a0250\u00a0₽, минимум 1\u00a0000\u00a0₽, максимум 2\u00a0000\u00a0₽; ближе к обычной цене)',
    );
    expect(say('ord_1 (#12) must be delivered within 12 min (by 2026-11-25T09:12:00.000Z)', 'deadline.warned')).toBe(
      'ord_1 (№12) нужно выдать в течение 12 мин. (до 25.11.2026, 12:12 GMT+3)',
    );
    expect(say('#12: 2 free units left (alert at 3)', 'stock.low')).toBe('№12: осталось 2 свободных единицы (порог 3)');
    expect(say('7 open orders (more than 5): work mode set to {"doNotDisturb":true}', 'backlog.engaged')).toBe(
      '7 открытых заказов (больше 5): режим работы теперь {"doNotDisturb":true}',
    );
    expect(say('ord_1: not delivered, need_next_charge: the next charge day is required', 'deliver.refused', { detail: { refusal: 'need_next_charge' } })).toBe(
      `ord_1: не выдан: ${t('refusals.need_next_charge')}`,
    );
    expect(say('ord_1: reply refused (a_kind_from_later)', 'replies.refused')).toBe('ord_1: ответ отклонён (a_kind_from_later)');
  });

  it('passes a line of a form it does not know through as it came', async () => {
    await useLanguage('ru');
    expect(eventMessage(ev('deliver.delivered', 'ord_1 handed over some new way'))).toBe('ord_1 handed over some new way');
    expect(eventMessage(ev('orders.refunded', 'ord_1 was paid back some new way'))).toBe('ord_1 was paid back some new way');
  });

  it('prints the line with the time in the chosen zone and the type as a word', async () => {
    const event = ev('stock.out', '#12: out of stock, auto-delivery is off until a refill', { card: 12 });
    const english = eventLine(event);
    expect(english.slice(8)).toBe('  stock     out            #12: out of stock, auto-delivery is off until a refill');
    await useLanguage('ru');
    useTimeZone({ utc: true });
    expect(eventLine(event)).toBe('09:00:05  stock     закончился     №12: склад пуст, автовыдача выключена до пополнения');
  });

  it('drops the rule and type a message starts with, in both languages, and the English short forms are the SDK line without them', async () => {
    for (const event of SAMPLES.filter((e) => readLine(e)!.form.short)) {
      const { form, values } = readLine(event)!;
      const stripped = event.message.slice(`${event.rule} ${event.type}`.length).replace(/^[:;,]?\s*/, '');
      expect(t(`autopilot.events.${form.short}`, form.show ? form.show(values, event, true) : values)).toBe(stripped);
      expect(eventMessage(event, true)).toBe(stripped);
    }
    const started = ev('autopilot.started', 'autopilot started: deliver; first run: every order is looked at once');
    expect(eventLine(started).slice(8)).toBe('  autopilot started        deliver; first run: every order is looked at once');
    await useLanguage('ru');
    useTimeZone({ utc: true });
    expect(eventLine(started)).toBe('09:00:05  autopilot запущен        deliver; первый запуск: каждый заказ будет просмотрен один раз');
    const dry = ev('autopilot.started', 'autopilot started (dry run: nothing is changed): deliver; first run: every order is looked at once');
    expect(eventMessage(dry, true)).toBe('(пробный запуск: ничего не меняется): deliver; первый запуск: каждый заказ будет просмотрен один раз');
  });

  it("counts the panel's events in words, by the language's plurals", async () => {
    expect(countsLine(new Map([['replies.replied', 1], ['deadline.warned', 1]]))).toBe('1 reply, 1 warning');
    expect(countsLine(new Map([['replies.replied', 2], ['deliver.delivered', 3]]))).toBe('2 replies, 3 delivered');
    expect(countsLine(new Map())).toBe('nothing done yet');
    await useLanguage('ru');
    expect(countsLine(new Map([['deliver.delivered', 21], ['replies.replied', 2], ['deadline.warned', 5], ['orders.disputed', 1]]))).toBe(
      '21 выдан, 2 ответа, 5 предупреждений, 1 спор',
    );
    expect(countsLine(new Map())).toBe('пока ничего не сделано');
  });

  it('reads the lines the SDK writes for orders that moved without it and for missed deadlines, in Russian', async () => {
    const order = { id: 'ord_7', number: 12, deliverBy: '2026-11-25T08:00:00.000Z', updatedAt: '2026-11-25T09:00:00.000Z' };
    const lines = [
      ev('deadline.missed', missedMessage(order)),
      ev('orders.refunded', movedMessage({ ...order, status: 'refunded' })!),
      ev('orders.refunded', movedMessage({ ...order, status: 'refunded', deliverBy: null })!),
      ev('orders.cancelled', movedMessage({ ...order, status: 'cancelled' })!),
      ev('orders.disputed', movedMessage({ ...order, status: 'disputed' })!),
    ];
    for (const line of lines) expect(readLine(line), line.message).toBeDefined();
    await useLanguage('ru');
    useTimeZone({ tz: 'Europe/Moscow' });
    expect(lines.map((line) => eventMessage(line))).toEqual([
      'ord_7 (№12): срок выдачи 25.11.2026, 11:00 GMT+3 прошёл без предупреждения (автопилот не работал или часы прыгнули)',
      'ord_7 (№12): деньги возвращены — срок выдачи 25.11.2026, 11:00 GMT+3 прошёл до выдачи',
      'ord_7 (№12): деньги возвращены покупателю (по спору или маркетплейсом)',
      'ord_7 (№12) отменён покупателем',
      'ord_7 (№12): покупатель открыл спор, ответьте на него (seller orders dispute-reply ord_7)',
    ]);
  });
});
