/**
 * The autopilot's lines in the seller's language (cli/commands/autopilot-lines.ts), from the events'
 * data (`say`: a form and its values, sdk/autopilot/words.ts): every form the SDK has is said here
 * from a sample made the way the SDK makes it, whose English is the line the SDK always wrote
 * (English output never changes); in Russian the values are shown as Russians write them (money,
 * times, plurals, statuses, product types, contact kinds, refusals and service failures in words);
 * an event without `say`, or of a form (or part) the catalogue lacks, is printed as its `message`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventMessage, repeatsColumns } from '../../cli/commands/autopilot-lines.ts';
import { countsLine, eventLine } from '../../cli/commands/autopilot.ts';
import { useTimeZone } from '../../cli/i18n/format.ts';
import { t, useLanguage } from '../../cli/i18n/index.ts';
import type { AutopilotEvent } from '../../sdk/autopilot/events.ts';
import { missedSays } from '../../sdk/autopilot/rules/deadline.ts';
import { movedSays } from '../../sdk/autopilot/rules/moved.ts';
import { AUTOPILOT_WORDS, failureOf, part, says, type AutopilotSay } from '../../sdk/autopilot/words.ts';
import { ConnectionError, NotFoundError, RateLimitError, RejectedError } from '../../sdk/errors.ts';
import { ActionError } from '../../sdk/autopilot/actions.ts';

const at = '2026-11-25T09:00:05.000Z';
type Said = { say: AutopilotSay; message: string };
const ev = (event: string, said: Said, extra: Partial<AutopilotEvent> = {}): AutopilotEvent => {
  const [rule, type] = event.split('.') as [AutopilotEvent['rule'], string];
  return { at, rule, type, ...said, ...extra };
};
const why = (text: string) => failureOf(new Error(text));
const base = { id: 'ord_1', number: 12 };

/** One event of every form, made as the SDK makes it, with the English line the SDK has always written. */
const SAMPLES: Array<[AutopilotEvent, string]> = [
  [ev('deliver.would-deliver', says('wouldRun', { ...base, productType: 'subscription', name: 'subs' })), 'ord_1 (#12 subscription): would run its command and deliver (subs)'],
  [ev('deliver.would-deliver', says('wouldCall', { ...base, productType: 'account', name: 'deliver#1' })), 'ord_1 (#12 account): would call its hook and deliver (deliver#1)'],
  [ev('deliver.delivered', says('delivered', { ...base, productType: 'subscription', name: 'subs', filtered: null })), 'ord_1 (#12 subscription) delivered by subs'],
  [
    ev('deliver.delivered', says('delivered', { ...base, productType: 'subscription', name: 'subs', filtered: part('noteFiltered', { why: 'contacts' }) })),
    'ord_1 (#12 subscription) delivered by subs (the service filtered the note: contacts)',
  ],
  [ev('deliver.note-withheld', says('noteWithheld', { id: 'ord_1', kinds: ['email', 'phone'] })), 'ord_1: the note contains an e-mail address and a phone number; contacts are not allowed; it is not sent'],
  [ev('deliver.failed', says('ruleGone', { id: 'ord_1', rule: 'subs' })), 'ord_1: its rule subs is no longer in the config; deliver it by hand'],
  [ev('deliver.failed', says('failed', { id: 'ord_1', reason: failureOf(new ActionError(part('action.exitCode', { exitCode: 3 }))) })), 'ord_1: not delivered, the command failed with exit code 3; deliver it by hand'],
  [ev('deliver.skipped', says('movedOn', { id: 'ord_1' })), 'ord_1: not delivered, the order moved on (cancelled or refunded meanwhile)'],
  [ev('deliver.skipped', says('notAwaiting', { id: 'ord_1', status: 'cancelled' })), 'ord_1: not delivered, it is cancelled now'],
  [
    ev('deliver.refused', says('refused', { id: 'ord_1', reason: { message: 'need_next_charge: the next charge day is required', code: 'rejected', refusal: { kind: 'need_next_charge' } } })),
    'ord_1: not delivered, need_next_charge: the next charge day is required',
  ],
  [ev('deliver.retrying', says('retrying', { id: 'ord_1', reason: why('connect ECONNREFUSED 127.0.0.1:1') })), 'ord_1: delivery failed (connect ECONNREFUSED 127.0.0.1:1); trying again next round'],
  [ev('deliver.error', says('cannotResume', { id: 'ord_1', reason: why('server failed') })), 'ord_1: cannot read it to resume its delivery (server failed); trying again next round'],
  [ev('deliver.error', says('orderError', { id: 'ord_1', reason: why('something broke') })), 'ord_1: something broke'],
  [ev('deliver.resumed', says('resumed', { id: 'ord_1', phase: 'ready', status: 'awaiting_delivery' })), 'ord_1: resuming its delivery from step ready (now awaiting_delivery)'],
  [ev('deliver.already-delivered', says('alreadyDelivered', { id: 'ord_1' })), 'ord_1 was already delivered before the restart'],
  [ev('deliver.held', says('held', { id: 'ord_1', number: 12, productType: 'subscription', name: 'subs' })), 'ord_1 (#12 subscription): the autopilot is paused; subs delivers it on resume'],
  [ev('deliver.already-delivered', says('deliveredOtherwise', { id: 'ord_1' })), 'ord_1 was delivered otherwise meanwhile; nothing was sent'],
  [ev('deadline.warned', says('within', { ...base, minutes: 12, deliverBy: '2026-11-25T09:12:00.000Z' })), 'ord_1 (#12) must be delivered within 12 min (by 2026-11-25T09:12:00.000Z)'],
  [ev('deadline.dispute', says('disputed', base)), 'ord_1 (#12) is disputed: answer the dispute'],
  [
    ev('deadline.missed', missedSays({ ...base, deliverBy: '2026-11-25T08:00:00.000Z' })),
    'ord_1 (#12) missed its delivery deadline 2026-11-25T08:00:00.000Z with no warning given (the autopilot was not running, or the clock jumped)',
  ],
  [
    ev('orders.refunded', says('refundedLate', { ...base, deliverBy: '2026-11-25T08:00:00.000Z' })),
    'ord_1 (#12) was refunded: its delivery deadline 2026-11-25T08:00:00.000Z passed before it was delivered',
  ],
  [ev('orders.refunded', says('refunded', base)), 'ord_1 (#12) was refunded to the buyer (a dispute or the marketplace)'],
  [ev('orders.cancelled', says('cancelled', base)), 'ord_1 (#12) was cancelled by the buyer'],
  [ev('orders.disputed', says('disputedByBuyer', base)), 'ord_1 (#12) is disputed by the buyer: answer the dispute (seller orders dispute-reply ord_1)'],
  [ev('stock.notify-failed', says('notifyFailed', { rule: 'stock', reason: why('the command timed out after 10 s') })), 'the stock notification failed: the command timed out after 10 s'],
  [ev('orders.needs-hand', says('needsHand', { id: 'ord_1', number: 12, productType: 'subscription', price: 300 })), 'ord_1 (#12 subscription, 300 RUB) is paid and no rule delivers it: deliver it by hand'],
  [ev('orders.paid', says('paid', { id: 'ord_1', number: 12, productType: 'code', price: 1500 })), 'ord_1 (#12 code, 1500 RUB) is paid'],
  [ev('autopilot.notify-failed', says('messageDropped', { channel: 'telegram', event: 'orders.needs-hand', reason: why('Forbidden: bot was blocked by the user') })), 'a telegram message about orders.needs-hand was not sent: Forbidden: bot was blocked by the user'],
  [ev('stock.error', says('cannotReadCard', { card: 12, reason: why('not found') })), '#12: cannot read the card (not found)'],
  [ev('stock.error', says('cannotReenable', { card: 12, reason: why('rate') })), '#12: could not switch auto-delivery back on (rate)'],
  [ev('stock.low', says('low', { card: 12, count: 1, lowAt: 3 })), '#12: 1 free unit left (alert at 3)'],
  [ev('stock.low', says('low', { card: 12, count: 2, lowAt: 3 })), '#12: 2 free units left (alert at 3)'],
  [ev('stock.would-reenable', says('wouldReenable', { card: 12, free: 5 })), '#12: refilled (5 free): would switch auto-delivery back on'],
  [ev('stock.reenabled', says('reenabled', { card: 12, free: 5 })), '#12: refilled (5 free): auto-delivery is on again'],
  [ev('stock.out', says('out', { card: 12 })), '#12: out of stock, auto-delivery is off until a refill'],
  [ev('reprice.error', says('cannotReadPrice', { card: 12, reason: why('rate') })), '#12: cannot read the card or its usual price (rate)'],
  [ev('reprice.error', says('priceNotChanged', { card: 12, reason: why('rate') })), '#12: price not changed (rate)'],
  [ev('reprice.error', says('auditFailed', { card: 12, reason: why('EACCES') })), '#12: the audit log could not be written (EACCES)'],
  [
    ev('reprice.repriced', says('repriced', { card: 12, before: 1500, after: 1299, usual: 1250, floor: 1000, ceiling: 2000, toward: part('why.usual') })),
    '#12: 1500 → 1299 RUB (usual 1250, floor 1000, ceiling 2000; toward the usual price)',
  ],
  [
    ev('reprice.would-reprice', says('repriced', { card: 12, before: 500, after: 400, usual: 325, floor: 400, ceiling: 900, toward: part('why.floor') })),
    '#12: 500 → 400 RUB (usual 325, floor 400, ceiling 900; stopped at the floor)',
  ],
  [
    ev('reprice.repriced', says('repriced', { card: 12, before: 500, after: 900, usual: 1325, floor: 400, ceiling: 900, toward: part('why.ceiling') })),
    '#12: 500 → 900 RUB (usual 1325, floor 400, ceiling 900; stopped at the ceiling)',
  ],
  [ev('replies.error', says('cannotReadMessages', { id: 'ord_1', reason: why('rate') })), 'ord_1: cannot read its messages (rate)'],
  [ev('replies.error', says('replyFailed', { id: 'ord_1', reason: why('rate') })), 'ord_1: reply failed (rate); trying again on its next change'],
  [ev('replies.error', says('cannotListQuestions', { reason: why('rate') })), 'cannot list the questions (rate)'],
  [ev('replies.error', says('questionFailed', { question: 'q_1', reason: why('rate') })), 'question q_1: not answered (rate)'],
  [ev('replies.capped', says('capped', { id: 'ord_1', count: 1 })), 'ord_1: already answered 1 time(s); this message is left to you'],
  [ev('replies.capped', says('capped', { id: 'ord_1', count: 5 })), 'ord_1: already answered 5 time(s); this message is left to you'],
  [ev('replies.would-reply', says('wouldReply', { id: 'ord_1', name: 'greeting' })), 'ord_1: would answer with greeting'],
  [ev('replies.replied', says('replied', { id: 'ord_1', name: 'greeting' })), 'ord_1: answered with greeting'],
  [ev('replies.refused', says('replyRefused', { id: 'ord_1', refusal: { kind: 'contacts', reason: 'phone' } })), 'ord_1: reply refused (contacts)'],
  [ev('replies.would-answer', says('wouldAnswer', { question: 'q_1', card: 12, name: 'faq' })), 'question q_1 on #12: would answer with faq'],
  [ev('replies.answered', says('answered', { question: 'q_1', card: 12, name: 'faq' })), 'question q_1 on #12: answered with faq'],
  [ev('backlog.would-engage', says('wouldEngage', { count: 7 })), '7 open orders: would set the work mode'],
  [ev('backlog.would-restore', says('wouldRestore', { count: 1 })), '1 open orders: would restore the work mode'],
  [ev('backlog.engaged', says('engaged', { count: 7, above: 5, body: { doNotDisturb: true } })), '7 open orders (more than 5): work mode set to {"doNotDisturb":true}'],
  [ev('backlog.restored', says('restored', { count: 2, body: { doNotDisturb: false } })), '2 open orders: work mode restored to {"doNotDisturb":false}'],
  [ev('backlog.error', says('cannotEngage', { reason: why('rate') })), 'could not set the work mode: rate; trying again next round'],
  [ev('backlog.error', says('cannotRestore', { reason: why('rate') })), 'could not restore the work mode: rate; trying again next round'],
  [ev('webhooks.event', says('webhookEvent', { event: 'order.paid', delivery: 'dlv_1' })), 'order.paid (dlv_1): polling now'],
  [ev('webhooks.refused', says('webhookRefused', { check: 'mismatch' })), 'a delivery was refused: mismatch (wrong secret, or not from the marketplace)'],
  [ev('webhooks.listening', says('listening', { url: 'http://127.0.0.1:4000/hooks' })), 'listening for webhook deliveries at http://127.0.0.1:4000/hooks (polling stays the source)'],
  [ev('autopilot.started', says('started', { dry: null, rules: ['deliver', 'stock'], from: part('firstRun') })), 'autopilot started: deliver, stock; first run: every order is looked at once'],
  [
    ev('autopilot.started', says('started', { dry: part('dryRun'), rules: ['deliver'], from: part('resumingFrom', { since: '2026-11-25T08:00:00.000Z' }) })),
    'autopilot started (dry run: nothing is changed): deliver; resuming from 2026-11-25T08:00:00.000Z',
  ],
  [ev('autopilot.stopped', says('stopped')), 'autopilot stopped; everything in progress was finished and the state saved'],
  [ev('autopilot.paused', says('paused')), 'paused: delivering, repricing and auto-replies wait; watching, warnings and messages go on'],
  [ev('autopilot.resumed', says('unpaused', { count: 2 })), 'resumed: 2 held orders are delivered now'],
  [ev('autopilot.key-failed', says('keyFailed', { reason: why('revoked') })), 'the API key was refused (revoked): the autopilot stops; check the key (seller whoami)'],
  [
    ev('autopilot.error', says('cannotList', { status: 'disputed', reason: why('rate') })),
    'cannot list the disputed orders (rate); the deadline guard and the backlog see them when they change',
  ],
  [ev('autopilot.error', says('timedRuleFailed', { reason: why('boom') })), 'a timed rule failed: boom'],
  [ev('autopilot.poll-failed', says('pollFailed', { reason: why('connection'), seconds: 4 })), 'polling failed (connection); retrying in 4 s'],
];

/** What an action's failure says, made as the SDK makes it (sdk/autopilot/actions.ts), with the English it always said. */
const ACTIONS: Array<[ActionError, string]> = [
  [new ActionError(part('action.none')), 'the action has neither a command nor a hook'],
  [new ActionError(part('action.cannotStart', { why: 'spawn /bin/sh ENOENT' })), 'the command could not start: spawn /bin/sh ENOENT'],
  [new ActionError(part('action.timedOut', { seconds: 10 }), 'still working | almost'), 'the command timed out after 10 s: still working | almost'],
  [new ActionError(part('action.killed', { signal: 'SIGTERM' })), 'the command was killed by SIGTERM'],
  [new ActionError(part('action.exitCode', { exitCode: 3 }), 'no such plan'), 'the command failed with exit code 3: no such plan'],
  [new ActionError(part('action.hookTimedOut', { seconds: 5 })), 'the hook did not answer within 5 s'],
  [new ActionError(part('action.hookUnreachable', { why: 'connect ECONNREFUSED 127.0.0.1:9' })), 'the hook could not be reached: connect ECONNREFUSED 127.0.0.1:9'],
  [new ActionError(part('action.hookStatus', { httpStatus: 502 })), 'the hook answered HTTP 502'],
  [new ActionError(part('action.notJson')), 'the action did not answer JSON ({"nextChargeDay"?, "note"?, "secret"?})'],
  [new ActionError(part('action.notObject')), 'the action did not answer a JSON object'],
  [new ActionError(part('action.unknownField', { field: 'login' })), 'the action answered an unknown field "login"'],
  [new ActionError(part('action.notString', { field: 'note' })), 'the action\'s "note" is not a string'],
  [new ActionError(part('action.nextChargeFormat')), 'the action\'s "nextChargeDay" is not YYYY-MM-DD'],
  [new ActionError(part('action.nextChargeNotDate', { day: '2026-02-30' })), 'the action\'s "nextChargeDay" 2026-02-30 is not a real date'],
  [new ActionError(part('action.nextChargePast', { day: '2026-11-01', today: '2026-11-25' })), 'the action\'s "nextChargeDay" 2026-11-01 is in the past (the service\'s today is 2026-11-25)'],
];
for (const [error] of ACTIONS) SAMPLES.push([ev('deliver.failed', says('failed', { id: 'ord_1', reason: failureOf(error) })), `ord_1: not delivered, ${error.message}; deliver it by hand`]);

/** Every form a sample's say uses, its parts' and its failures' included. */
const formsOf = (say: AutopilotSay): string[] => [
  say.form,
  ...Object.values(say.values).flatMap((v) => {
    if (typeof v !== 'object' || v === null) return [];
    if ('form' in v) return formsOf(v as AutopilotSay);
    const own = (v as { say?: AutopilotSay }).say;
    return own ? formsOf(own) : [];
  }),
];

afterEach(async () => {
  await useLanguage('en');
  useTimeZone({});
});

describe('autopilot lines', () => {
  it('has a sample of every form the SDK has, and the SDK writes each the English it always wrote', () => {
    const used = new Set(SAMPLES.flatMap(([event]) => formsOf(event.say!)));
    expect(Object.keys(AUTOPILOT_WORDS).filter((form) => !used.has(form))).toEqual([]);
    for (const [event, english] of SAMPLES) expect(event.message).toBe(english);
  });

  it('makes an action\'s failure the English it always said', () => {
    for (const [error, english] of ACTIONS) expect(error.message).toBe(english);
    // An ActionError made from a bare message (a caller of its own) still says it.
    expect(new ActionError('it broke', 'tail').message).toBe('it broke: tail');
    expect(failureOf(new ActionError('it broke', 'tail'))).toEqual({ message: 'it broke: tail', output: 'tail' });
  });

  it('prints the SDK\'s line in English as it came (the English catalogue holds the same words: autopilot-forms.test.ts)', () => {
    for (const [event] of SAMPLES) {
      expect(eventMessage(event)).toBe(event.message);
    }
  });

  it('says every form in Russian from the data, with no English form left', async () => {
    await useLanguage('ru');
    // `{{id}}: {{reason}}` has no words of its own: a reason with no code stays as it came.
    for (const [event] of SAMPLES.filter(([e]) => e.say!.form !== 'orderError')) {
      const text = eventMessage(event);
      expect(text, event.message).not.toBe(event.message);
      expect(text).toMatch(/[а-яё]/i);
      expect(text).not.toMatch(/\{\{/);
    }
  });

  it('shows money, times, plurals, statuses, product types, contacts and refusals as Russians read them', async () => {
    await useLanguage('ru');
    useTimeZone({ tz: 'Europe/Moscow' });
    const say = (event: string, said: Said) => eventMessage(ev(event, said));
    expect(say('reprice.repriced', says('repriced', { card: 12, before: 1500, after: 1299, usual: 1250, floor: 1000, ceiling: 2000, toward: part('why.usual') }))).toBe(
      '№12: 1\u00a0500\u00a0₽ → 1\u00a0299\u00a0₽ (обычная цена 1\u00a0250\u00a0₽, минимум 1\u00a0000\u00a0₽, максимум 2\u00a0000\u00a0₽; ближе к обычной цене)',
    );
    expect(say('deadline.warned', says('within', { ...base, minutes: 12, deliverBy: '2026-11-25T09:12:00.000Z' }))).toBe('ord_1 (№12) нужно выдать в течение 12 мин. (до 25.11.2026, 12:12 GMT+3)');
    expect(say('stock.low', says('low', { card: 12, count: 2, lowAt: 3 }))).toBe('№12: осталось 2 свободных единицы (порог 3)');
    expect(say('stock.low', says('low', { card: 12, count: 5, lowAt: 5 }))).toBe('№12: осталось 5 свободных единиц (порог 5)');
    expect(say('stock.low', says('low', { card: 12, count: 21, lowAt: 30 }))).toBe('№12: осталась 21 свободная единица (порог 30)');
    expect(say('backlog.engaged', says('engaged', { count: 7, above: 5, body: { doNotDisturb: true } }))).toBe('7 открытых заказов (больше 5): режим работы теперь «не беспокоить» — включено');
    expect(say('backlog.engaged', says('engaged', { count: 7, above: 5, body: { capacity: 3, doNotDisturb: false } }))).toBe(
      '7 открытых заказов (больше 5): режим работы теперь загрузка — 3 заказа одновременно, «не беспокоить» — выключено',
    );
    expect(say('backlog.restored', says('restored', { count: 2, body: { capacity: null, quietHours: 'later' } }))).toBe(
      '2 открытых заказа: режим работы возвращён: загрузка — без ограничения, quietHours: "later"',
    );
    expect(say('deliver.resumed', says('resumed', { id: 'ord_1', phase: 'ready', status: 'awaiting_delivery' }))).toBe('ord_1: продолжаю выдачу с шага «вызов выдачи» (сейчас «ждёт выдачи»)');
    expect(say('deliver.resumed', says('resumed', { id: 'ord_1', phase: 'later', status: 'awaiting_delivery' }))).toBe('ord_1: продолжаю выдачу с шага later (сейчас «ждёт выдачи»)');
    expect(say('webhooks.refused', says('webhookRefused', { check: 'mismatch' }))).toBe('доставка отклонена: подпись не совпадает (неверный секрет или прислал не маркетплейс)');
    expect(say('webhooks.refused', says('webhookRefused', { check: 'a_check_from_later' }))).toBe('доставка отклонена: a_check_from_later (неверный секрет или прислал не маркетплейс)');
    expect(say('deliver.delivered', says('delivered', { ...base, productType: 'subscription', name: 'subs', filtered: null }))).toBe('ord_1 (№12 подписка) выдан по правилу subs');
    expect(say('deliver.skipped', says('notAwaiting', { id: 'ord_1', status: 'cancelled' }))).toBe('ord_1: не выдан, сейчас его статус «отменён»');
    expect(say('deliver.note-withheld', says('noteWithheld', { id: 'ord_1', kinds: ['email', 'phone', 'link'] }))).toBe(
      'ord_1: записка содержит адрес e-mail, номер телефона и ссылку на профиль в соцсети; контакты запрещены, она не отправлена',
    );
    expect(say('replies.refused', says('replyRefused', { id: 'ord_1', refusal: { kind: 'a_kind_from_later' } }))).toBe('ord_1: ответ отклонён (a_kind_from_later)');
    expect(say('replies.refused', says('replyRefused', { id: 'ord_1', refusal: { kind: 'contacts' } }))).toBe(`ord_1: ответ отклонён (${t('refusals.contacts')})`);
  });

  it('says a failure of the service by its data: the refusal, the code, the connection', async () => {
    const refused = new RejectedError({ code: 'rejected', status: 409, refusal: { kind: 'need_next_charge', reason: 'required' }, detail: 'need_next_charge: the next charge day is required' });
    const english = says('refused', { id: 'ord_1', reason: failureOf(refused, true) });
    expect(english.message).toBe(`ord_1: not delivered, ${refused.message}`);
    const rate = says('cannotReadCard', { card: 12, reason: failureOf(new RateLimitError({ code: 'rate', status: 429, operation: 'listings.get' })) });
    const lost = says('pollFailed', { reason: failureOf(new ConnectionError({ origin: 'http://127.0.0.1:1', errno: 'ECONNREFUSED' })), seconds: 4 });
    const gone = says('cannotReadCard', { card: 12, reason: failureOf(new NotFoundError({ code: 'not_found', status: 404, detail: { record: 'card', id: '12', message: 'no such card' } })) });
    await useLanguage('ru');
    expect(eventMessage(ev('deliver.refused', english))).toBe(`ord_1: не выдан: ${t('reasons.need_next_charge.required')}`);
    expect(eventMessage(ev('stock.error', rate))).toBe(`№12: не удалось прочитать карточку (${t('errors.detail.rate')})`);
    expect(eventMessage(ev('autopilot.poll-failed', lost))).toBe(`опрос не удался (${t('errors.detail.connectionToWhy', { origin: 'http://127.0.0.1:1', errno: 'ECONNREFUSED' })}); повторю через 4 с`);
    expect(eventMessage(ev('stock.error', gone))).toBe(`№12: не удалось прочитать карточку (${t('errors.notFound.card.withId', { id: '12' })})`);
  });

  it("says an action's failure in words, its output as the command wrote it", async () => {
    await useLanguage('ru');
    const failed = (error: ActionError) => eventMessage(ev('deliver.failed', says('failed', { id: 'ord_1', reason: failureOf(error) })));
    expect(failed(new ActionError(part('action.exitCode', { exitCode: 3 }), 'no such plan'))).toBe('ord_1: не выдан, команда завершилась с кодом 3: no such plan; выдайте заказ вручную');
    expect(failed(new ActionError(part('action.hookStatus', { httpStatus: 502 })))).toBe('ord_1: не выдан, хук ответил HTTP 502; выдайте заказ вручную');
    // An action's failure of a form this CLI does not know: its English.
    expect(failed(new ActionError({ form: 'action.outOfMemory', values: {} }))).toBe('ord_1: не выдан, action.outOfMemory; выдайте заказ вручную');
  });

  it('prints the message as it came for an event without say, of a form the catalogue lacks, or with a part it lacks', async () => {
    await useLanguage('ru');
    const plain: AutopilotEvent = { at, rule: 'deliver', type: 'delivered', message: 'ord_1 handed over some new way' };
    expect(eventMessage(plain)).toBe('ord_1 handed over some new way');
    expect(eventMessage({ ...plain, say: { form: 'handedOverNewWay', values: { id: 'ord_1' } } })).toBe('ord_1 handed over some new way');
    // A group of the catalogue is no form.
    expect(eventMessage({ ...plain, say: { form: 'action', values: {} } })).toBe('ord_1 handed over some new way');
    expect(eventMessage({ ...plain, say: { form: 'constructor', values: {} } })).toBe('ord_1 handed over some new way');
    const newerPart = { form: 'delivered', values: { ...base, productType: 'subscription', name: 'subs', filtered: { form: 'noteShortened', values: {} } } };
    expect(eventMessage({ ...plain, say: newerPart })).toBe('ord_1 handed over some new way');
    // A value the catalogue shows by what its name holds, and a status the catalogue does not know, as it came.
    expect(eventMessage(ev('deliver.skipped', says('notAwaiting', { id: 'ord_1', status: 'on_hold' })))).toBe('ord_1: не выдан, сейчас его статус «on_hold»');
  });

  it('prints the line with the time in the chosen zone and the type as a word', async () => {
    const event = ev('stock.out', says('out', { card: 12 }), { card: 12 });
    const english = eventLine(event);
    expect(english.slice(8)).toBe('  stock     out            #12: out of stock, auto-delivery is off until a refill');
    await useLanguage('ru');
    useTimeZone({ utc: true });
    expect(eventLine(event)).toBe('09:00:05  stock     закончился     №12: склад пуст, автовыдача выключена до пополнения');
  });

  it('drops the rule and type the words start with under the columns, in both languages', async () => {
    const started = ev('autopilot.started', says('started', { dry: null, rules: ['deliver'], from: part('firstRun') }));
    const dry = ev('autopilot.started', says('started', { dry: part('dryRun'), rules: ['deliver'], from: part('resumingFrom', { since: '2026-11-25T08:00:00.000Z' }) }));
    const stopped = ev('autopilot.stopped', says('stopped'));
    for (const event of [started, dry, stopped]) {
      expect(repeatsColumns(event)).toBe(true);
      const stripped = event.message.slice(`${event.rule} ${event.type}`.length).replace(/^[:;,]?\s*/, '');
      expect(eventMessage(event, true)).toBe(stripped);
    }
    expect(repeatsColumns(ev('stock.out', says('out', { card: 12 })))).toBe(false);
    expect(eventLine(started).slice(8)).toBe('  autopilot started        deliver; first run: every order is looked at once');
    // Without `say` (an older SDK's event), the English start is dropped as before.
    expect(eventMessage({ ...started, say: undefined }, true)).toBe('deliver; first run: every order is looked at once');
    await useLanguage('ru');
    useTimeZone({ utc: true });
    expect(eventLine(started)).toBe('09:00:05  autopilot запущен        deliver; первый запуск: каждый заказ будет просмотрен один раз');
    expect(eventMessage(dry, true)).toBe('(пробный запуск: ничего не меняется): deliver; продолжаю с 25.11.2026, 08:00 UTC');
    expect(eventLine(stopped).slice(8)).toBe('  autopilot остановлен     начатое доделано, состояние сохранено');
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

  it('says the lines of orders that moved without it and of missed deadlines in Russian, from their data', async () => {
    const order = { id: 'ord_7', number: 12, deliverBy: '2026-11-25T08:00:00.000Z', updatedAt: '2026-11-25T09:00:00.000Z' };
    const lines = [
      ev('deadline.missed', missedSays(order)),
      ev('orders.refunded', movedSays({ ...order, status: 'refunded' })!),
      ev('orders.refunded', movedSays({ ...order, status: 'refunded', deliverBy: null })!),
      ev('orders.cancelled', movedSays({ ...order, status: 'cancelled' })!),
      ev('orders.disputed', movedSays({ ...order, status: 'disputed' })!),
    ];
    expect(movedSays({ ...order, status: 'delivered' })).toBeUndefined();
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
