/**
 * The autopilot's lines in the seller's language. The SDK's events carry an English `message` (its
 * developer-facing text, which `--json` keeps as it is); the CLI re-says each known form of it from
 * the catalogue (`autopilot.events.*`), with the values read from the English line and shown as
 * the language writes them (money, times, plurals, refusal kinds in words). A line whose form is
 * not known here (a newer SDK's) passes through in English, as commander's unknown errors do
 * (cli/i18n/commander.ts). In English the SDK's line is printed as it came; the English catalogue
 * holds the same texts, which test/cli/autopilot-lines.test.ts checks form by form.
 */
import { has, language, t } from '../i18n/index.ts';
import { dateTime, money, word } from '../i18n/format.ts';
import type { AutopilotEvent } from '../../sdk/autopilot/events.ts';
import { refusalWords } from '../i18n/error-words.ts';

type Values = Record<string, string | undefined>;

export interface LineForm {
  /** `rule.type` of the events it reads (`*` for any rule). */
  event: string;
  pattern: RegExp;
  /** The message under `autopilot.events.`. */
  key: string;
  /** The message without the rule and type it starts with (the line's columns say them), when it does. */
  short?: string;
  /** The values as the active language shows them (default: as read). */
  show?: (values: Values, event: AutopilotEvent, short: boolean) => Record<string, unknown>;
}

const ID = '(?<id>\\S+)';
const CARD = '#(?<card>\\d+)';

/** A refusal (its kind and reason, from the event's data) in words when the catalogue has them, else what the SDK said. */
const refusal = (detail: AutopilotEvent['detail'], said: string | undefined) =>
  typeof detail?.['refusal'] === 'string' ? (refusalWords({ kind: detail['refusal'], reason: detail['reason'] }) ?? said) : said;
const rub = (value: string | undefined) => (value === undefined ? value : money(Number(value)));
const count = (value: string | undefined) => Number(value);

export const FORMS: readonly LineForm[] = [
  { event: 'deliver.would-deliver', pattern: new RegExp(`^${ID} \\(#(?<number>\\d+) (?<productType>\\S+)\\): would run its command and deliver \\((?<name>.*)\\)$`), key: 'wouldRun' },
  { event: 'deliver.would-deliver', pattern: new RegExp(`^${ID} \\(#(?<number>\\d+) (?<productType>\\S+)\\): would call its hook and deliver \\((?<name>.*)\\)$`), key: 'wouldCall' },
  {
    event: 'deliver.delivered',
    pattern: new RegExp(`^${ID} \\(#(?<number>\\d+) (?<productType>\\S+)\\) delivered by (?<name>.*?)(?<filtered> \\(the service filtered the note: (?<why>.*)\\))?$`),
    key: 'delivered',
    show: (v) => ({ ...v, filtered: v.filtered ? t('autopilot.events.noteFiltered', { why: v.why }) : '' }),
  },
  { event: 'deliver.note-withheld', pattern: new RegExp(`^${ID}: the note holds a contact \\((?<kinds>.*)\\) and is not sent$`), key: 'noteWithheld' },
  { event: 'deliver.failed', pattern: new RegExp(`^${ID}: its rule (?<rule>.*) is no longer in the config; deliver it by hand$`), key: 'ruleGone' },
  { event: 'deliver.failed', pattern: new RegExp(`^${ID}: not delivered, (?<reason>.*); deliver it by hand$`), key: 'failed' },
  { event: 'deliver.skipped', pattern: new RegExp(`^${ID}: not delivered, the order moved on \\(cancelled or refunded meanwhile\\)$`), key: 'movedOn' },
  { event: 'deliver.skipped', pattern: new RegExp(`^${ID}: not delivered, it is (?<status>\\S+) now$`), key: 'notAwaiting', show: (v) => ({ ...v, status: word('orderStatus', v.status!) }) },
  { event: 'deliver.refused', pattern: new RegExp(`^${ID}: not delivered, (?<why>.*)$`), key: 'refused', show: (v, e) => ({ ...v, why: refusal(e.detail, v.why) }) },
  { event: 'deliver.retrying', pattern: new RegExp(`^${ID}: delivery failed \\((?<reason>.*)\\); trying again next round$`), key: 'retrying' },
  { event: 'deliver.error', pattern: new RegExp(`^${ID}: cannot read it to resume its delivery \\((?<reason>.*)\\); trying again next round$`), key: 'cannotResume' },
  { event: 'deliver.error', pattern: new RegExp(`^${ID}: (?<reason>.*)$`), key: 'orderError' },
  {
    event: 'deliver.resumed',
    pattern: new RegExp(`^${ID}: resuming its delivery from step (?<phase>\\S+) \\(now (?<status>\\S+)\\)$`),
    key: 'resumed',
    show: (v) => ({ ...v, status: word('orderStatus', v.status!) }),
  },
  // i18next-instrument-ignore-next-line: a catalogue key, and the SDK's English line it reads
  { event: 'deliver.already-delivered', pattern: new RegExp(`^${ID} was already delivered before the restart$`), key: 'alreadyDelivered' },
  {
    event: 'deadline.warned',
    pattern: new RegExp(`^${ID} \\(#(?<number>\\d+)\\) must be delivered within (?<minutes>-?\\d+) min \\(by (?<deliverBy>.*)\\)$`),
    key: 'within',
    show: (v) => ({ ...v, deliverBy: dateTime(v.deliverBy) }),
  },
  { event: 'deadline.warned', pattern: new RegExp(`^${ID} \\(#(?<number>\\d+)\\) is past its delivery deadline \\((?<deliverBy>.*)\\)$`), key: 'pastDeadline', show: (v) => ({ ...v, deliverBy: dateTime(v.deliverBy) }) },
  { event: 'deadline.dispute', pattern: new RegExp(`^${ID} \\(#(?<number>\\d+)\\) is disputed: answer the dispute$`), key: 'disputed' },
  {
    event: 'deadline.missed',
    pattern: new RegExp(`^${ID} \\(#(?<number>\\d+)\\) missed its delivery deadline (?<deliverBy>\\S+) with no warning given \\(the autopilot was not running, or the clock jumped\\)$`),
    key: 'missed',
    show: (v) => ({ ...v, deliverBy: dateTime(v.deliverBy) }),
  },
  {
    event: 'orders.refunded',
    pattern: new RegExp(`^${ID} \\(#(?<number>\\d+)\\) was refunded: its delivery deadline (?<deliverBy>\\S+) passed before it was delivered$`),
    key: 'refundedLate',
    show: (v) => ({ ...v, deliverBy: dateTime(v.deliverBy) }),
  },
  { event: 'orders.refunded', pattern: new RegExp(`^${ID} \\(#(?<number>\\d+)\\) was refunded to the buyer \\(a dispute or the marketplace\\)$`), key: 'refunded' },
  { event: 'orders.cancelled', pattern: new RegExp(`^${ID} \\(#(?<number>\\d+)\\) was cancelled by the buyer$`), key: 'cancelled' },
  {
    event: 'orders.disputed',
    pattern: new RegExp(`^${ID} \\(#(?<number>\\d+)\\) is disputed by the buyer: answer the dispute \\(seller orders dispute-reply (?<again>\\S+)\\)$`),
    key: 'disputedByBuyer',
  },
  { event: '*.notify-failed', pattern: /^the (?<rule>\S+) notification failed: (?<reason>.*)$/, key: 'notifyFailed' },
  { event: 'stock.error', pattern: new RegExp(`^${CARD}: cannot read the card \\((?<reason>.*)\\)$`), key: 'cannotReadCard' },
  { event: 'stock.error', pattern: new RegExp(`^${CARD}: could not switch auto-delivery back on \\((?<reason>.*)\\)$`), key: 'cannotReenable' },
  { event: 'stock.low', pattern: new RegExp(`^${CARD}: (?<count>\\d+) free units? left \\(alert at (?<lowAt>\\d+)\\)$`), key: 'low', show: (v) => ({ ...v, count: count(v.count) }) },
  { event: 'stock.would-reenable', pattern: new RegExp(`^${CARD}: refilled \\((?<free>\\d+) free\\): would switch auto-delivery back on$`), key: 'wouldReenable' },
  { event: 'stock.reenabled', pattern: new RegExp(`^${CARD}: refilled \\((?<free>\\d+) free\\): auto-delivery is on again$`), key: 'reenabled' },
  { event: 'stock.out', pattern: new RegExp(`^${CARD}: out of stock, auto-delivery is off until a refill$`), key: 'out' },
  { event: 'reprice.error', pattern: new RegExp(`^${CARD}: cannot read the card or its usual price \\((?<reason>.*)\\)$`), key: 'cannotReadPrice' },
  { event: 'reprice.error', pattern: new RegExp(`^${CARD}: price not changed \\((?<reason>.*)\\)$`), key: 'priceNotChanged' },
  // i18next-instrument-ignore-next-line: a catalogue key, and the SDK's English line it reads
  { event: 'reprice.error', pattern: new RegExp(`^${CARD}: the audit log could not be written \\((?<reason>.*)\\)$`), key: 'auditFailed' },
  ...(['reprice.repriced', 'reprice.would-reprice'] as const).map(
    (event): LineForm => ({
      event,
      pattern: new RegExp(`^${CARD}: (?<before>\\d+) → (?<after>\\d+) RUB \\(usual (?<usual>\\d+), floor (?<floor>\\d+), ceiling (?<ceiling>\\d+); (?<why>.*)\\)$`),
      key: 'repriced',
      show: (v) => ({
        card: v.card,
        before: rub(v.before),
        after: rub(v.after),
        usual: rub(v.usual),
        floor: rub(v.floor),
        ceiling: rub(v.ceiling),
        why: REPRICE_WHY[v.why!] ? t(`autopilot.events.why.${REPRICE_WHY[v.why!]}`) : v.why,
      }),
    }),
  ),
  { event: 'replies.error', pattern: new RegExp(`^${ID}: cannot read its messages \\((?<reason>.*)\\)$`), key: 'cannotReadMessages' },
  { event: 'replies.error', pattern: new RegExp(`^${ID}: reply failed \\((?<reason>.*)\\); trying again on its next change$`), key: 'replyFailed' },
  { event: 'replies.error', pattern: /^cannot list the questions \((?<reason>.*)\)$/, key: 'cannotListQuestions' },
  { event: 'replies.error', pattern: /^question (?<question>\S+): not answered \((?<reason>.*)\)$/, key: 'questionFailed' },
  { event: 'replies.capped', pattern: new RegExp(`^${ID}: already answered (?<count>\\d+) time\\(s\\); this message is left to you$`), key: 'capped', show: (v) => ({ ...v, count: count(v.count) }) },
  { event: 'replies.would-reply', pattern: new RegExp(`^${ID}: would answer with (?<name>.*)$`), key: 'wouldReply' },
  { event: 'replies.replied', pattern: new RegExp(`^${ID}: answered with (?<name>.*)$`), key: 'replied' },
  { event: 'replies.refused', pattern: new RegExp(`^${ID}: reply refused \\((?<kind>.*)\\)$`), key: 'replyRefused', show: (v) => ({ ...v, kind: refusal({ refusal: v.kind }, v.kind) }) },
  { event: 'replies.would-answer', pattern: /^question (?<question>\S+) on #(?<card>\d+): would answer with (?<name>.*)$/, key: 'wouldAnswer' },
  { event: 'replies.answered', pattern: /^question (?<question>\S+) on #(?<card>\d+): answered with (?<name>.*)$/, key: 'answered' },
  { event: 'backlog.would-engage', pattern: /^(?<count>\d+) open orders: would set the work mode$/, key: 'wouldEngage', show: (v) => ({ count: count(v.count) }) },
  { event: 'backlog.would-restore', pattern: /^(?<count>\d+) open orders: would restore the work mode$/, key: 'wouldRestore', show: (v) => ({ count: count(v.count) }) },
  { event: 'backlog.engaged', pattern: /^(?<count>\d+) open orders \(more than (?<above>\d+)\): work mode set to (?<body>.*)$/, key: 'engaged', show: (v) => ({ ...v, count: count(v.count) }) },
  { event: 'backlog.restored', pattern: /^(?<count>\d+) open orders: work mode restored to (?<body>.*)$/, key: 'restored', show: (v) => ({ ...v, count: count(v.count) }) },
  { event: 'backlog.error', pattern: /^could not set the work mode: (?<reason>.*); trying again next round$/, key: 'cannotEngage' },
  { event: 'backlog.error', pattern: /^could not restore the work mode: (?<reason>.*); trying again next round$/, key: 'cannotRestore' },
  // i18next-instrument-ignore-next-line: a catalogue key, and the SDK's English line it reads
  { event: 'webhooks.event', pattern: /^(?<event>\S+) \((?<delivery>\S+)\): polling now$/, key: 'webhookEvent' },
  // i18next-instrument-ignore-next-line: a catalogue key, and the SDK's English line it reads
  { event: 'webhooks.refused', pattern: /^a delivery was refused: (?<why>.*) \(wrong secret, or not from the marketplace\)$/, key: 'webhookRefused' },
  { event: 'webhooks.listening', pattern: /^listening for webhook deliveries at (?<url>\S+) \(polling stays the source\)$/, key: 'listening' },
  {
    event: 'autopilot.started',
    pattern: /^autopilot started(?<dry> \(dry run: nothing is changed\))?: (?<rules>.*); (?<from>resuming from (?<since>.*)|first run: every order is looked at once)$/,
    key: 'started',
    short: 'startedShort',
    show: (v, _event, short) => ({
      rules: v.rules,
      dry: v.dry ? t(short ? 'autopilot.events.dryRunShort' : 'autopilot.events.dryRun') : '',
      from: v.since !== undefined ? t('autopilot.events.resumingFrom', { since: dateTime(v.since) }) : t('autopilot.events.firstRun'),
    }),
  },
  { event: 'autopilot.stopped', pattern: /^autopilot stopped; everything in progress was finished and the state saved$/, key: 'stopped', short: 'stoppedShort' },
  { event: 'autopilot.error', pattern: /^cannot list the (?<status>\S+) orders \((?<reason>.*)\); the deadline guard and the backlog see them when they change$/, key: 'cannotList', show: (v) => ({ ...v, status: word('orderStatus', v.status!) }) },
  { event: 'autopilot.error', pattern: /^a timed rule failed: (?<reason>.*)$/, key: 'timedRuleFailed' },
  { event: 'autopilot.poll-failed', pattern: /^polling failed \((?<reason>.*)\); retrying in (?<seconds>\d+) s$/, key: 'pollFailed' },
];

/** The reprice rule's reasons (sdk/autopilot/rules/reprice.ts), by their English words. */
const REPRICE_WHY: Record<string, string> = {
  // i18next-instrument-ignore-next-line: the SDK's English words, matched to find the key
  'stopped at the floor': 'floor',
  // i18next-instrument-ignore-next-line: the SDK's English words, matched to find the key
  'stopped at the ceiling': 'ceiling',
  // i18next-instrument-ignore-next-line: the SDK's English words, matched to find the key
  'toward the usual price': 'usual',
};

/** The form an event's message has, with the values read from it (undefined: a form not known here). */
export function readLine(event: AutopilotEvent): { form: LineForm; values: Values } | undefined {
  for (const form of FORMS) {
    const [rule, type] = form.event.split('.');
    if ((rule !== '*' && rule !== event.rule) || type !== event.type) continue;
    const match = form.pattern.exec(event.message);
    if (match) return { form, values: { ...match.groups } };
  }
  return undefined;
}

/**
 * The event's message for people in the active language; `short`: without the rule and type it
 * starts with (`autopilot started: …` under the columns `autopilot started`).
 */
export function eventMessage(event: AutopilotEvent, short = false): string {
  // i18next-instrument-ignore-next-line: the SDK's English words a line starts with, matched
  const said = `${event.rule} ${event.type}`;
  const english = short && event.message.startsWith(said) ? event.message.slice(said.length).replace(/^[:;,]?\s*/, '') : event.message;
  if (language() === 'en') return english;
  const read = readLine(event);
  if (!read) return english;
  const { form, values } = read;
  const useShort = short && form.short !== undefined;
  return t(`autopilot.events.${useShort ? form.short : form.key}`, form.show ? form.show(values, event, useShort) : values);
}

/** An event type for people: a word in Russian, the raw type in English (and for a type not known here). */
export function eventType(type: string): string {
  const key = `autopilot.types.${type}`;
  return has(key) ? t(key) : type;
}
