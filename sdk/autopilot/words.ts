/**
 * The autopilot's events are data (like errors, sdk/contract/error-data.ts): each says what it says
 * as a form id and the values it names (`AutopilotEvent.say`), and its English `message` is made here
 * from the one table of English templates keyed by the same form ids, so the two never drift. A
 * client says an event in its own words from the form and the values (the CLI from its catalogue,
 * `autopilot.events.<form>`, which holds exactly these forms: test/cli/autopilot-forms.test.ts).
 *
 * A template names its values as `{{name}}`; what a name holds, and so how a client shows it, is
 * declared once in {@link AUTOPILOT_VALUES}. A value is raw data: numbers as numbers, times as ISO,
 * enum values as they are (order statuses, product types, refusal kinds), a failure as its data
 * ({@link AutopilotFailure}), and a part of the line that has words of its own (an optional clause,
 * or words chosen by a value) as a nested {@link AutopilotSay} of its own form, or null when absent.
 */
import { SellerError, RejectedError, ConnectionError } from '../errors.ts';
import { CONTACT_WORDS, contactList } from '../contact-words.ts';

/** A short reason from an error, without anything a buyer wrote. */
export function reason(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0]!.slice(0, 300);
  return String(error).slice(0, 300);
}

/** The English of every form. A form whose words depend on a number gives them per English plural category of its `count`. */
export const AUTOPILOT_WORDS = {
  // deliver
  wouldRun: '{{id}} (#{{number}} {{productType}}): would run its command and deliver ({{name}})',
  wouldCall: '{{id}} (#{{number}} {{productType}}): would call its hook and deliver ({{name}})',
  delivered: '{{id}} (#{{number}} {{productType}}) delivered by {{name}}{{filtered}}',
  noteFiltered: ' (the service filtered the note: {{why}})',
  noteWithheld: '{{id}}: the note contains {{kinds}}; contacts are not allowed; it is not sent',
  ruleGone: '{{id}}: its rule {{rule}} is no longer in the config; deliver it by hand',
  failed: '{{id}}: not delivered, {{reason}}; deliver it by hand',
  movedOn: '{{id}}: not delivered, the order moved on (cancelled or refunded meanwhile)',
  notAwaiting: '{{id}}: not delivered, it is {{status}} now',
  refused: '{{id}}: not delivered, {{reason}}',
  retrying: '{{id}}: delivery failed ({{reason}}); trying again next round',
  cannotResume: '{{id}}: cannot read it to resume its delivery ({{reason}}); trying again next round',
  orderError: '{{id}}: {{reason}}',
  resumed: '{{id}}: resuming its delivery from step {{phase}} (now {{status}})',
  alreadyDelivered: '{{id}} was already delivered before the restart',
  held: '{{id}} (#{{number}} {{productType}}): the autopilot is paused; {{name}} delivers it on resume',
  deliveredOtherwise: '{{id}} was delivered otherwise meanwhile; nothing was sent',
  // deadline
  within: '{{id}} (#{{number}}) must be delivered within {{minutes}} min (by {{deliverBy}})',
  disputed: '{{id}} (#{{number}}) is disputed: answer the dispute',
  missed: '{{id}} (#{{number}}) missed its delivery deadline {{deliverBy}} with no warning given (the autopilot was not running, or the clock jumped)',
  // orders that moved without the autopilot
  refundedLate: '{{id}} (#{{number}}) was refunded: its delivery deadline {{deliverBy}} passed before it was delivered',
  refunded: '{{id}} (#{{number}}) was refunded to the buyer (a dispute or the marketplace)',
  cancelled: '{{id}} (#{{number}}) was cancelled by the buyer',
  disputedByBuyer: '{{id}} (#{{number}}) is disputed by the buyer: answer the dispute (seller orders dispute-reply {{id}})',
  notifyFailed: 'the {{rule}} notification failed: {{reason}}',
  needsHand: '{{id}} (#{{number}} {{productType}}, {{price}} RUB) is paid and no rule delivers it: deliver it by hand',
  paid: '{{id}} (#{{number}} {{productType}}, {{price}} RUB) is paid',
  messageDropped: 'a {{channel}} message about {{event}} was not sent: {{reason}}',
  // stock
  cannotReadCard: '#{{card}}: cannot read the card ({{reason}})',
  cannotReenable: '#{{card}}: could not switch auto-delivery back on ({{reason}})',
  low: { one: '#{{card}}: {{count}} free unit left (alert at {{lowAt}})', other: '#{{card}}: {{count}} free units left (alert at {{lowAt}})' },
  wouldReenable: '#{{card}}: refilled ({{free}} free): would switch auto-delivery back on',
  reenabled: '#{{card}}: refilled ({{free}} free): auto-delivery is on again',
  out: '#{{card}}: out of stock, auto-delivery is off until a refill',
  // reprice
  cannotReadPrice: '#{{card}}: cannot read the card or its usual price ({{reason}})',
  priceNotChanged: '#{{card}}: price not changed ({{reason}})',
  auditFailed: '#{{card}}: the audit log could not be written ({{reason}})',
  repriced: '#{{card}}: {{before}} → {{after}} RUB (usual {{usual}}, floor {{floor}}, ceiling {{ceiling}}; {{toward}})',
  'why.floor': 'stopped at the floor',
  'why.ceiling': 'stopped at the ceiling',
  'why.usual': 'toward the usual price',
  // replies
  cannotReadMessages: '{{id}}: cannot read its messages ({{reason}})',
  replyFailed: '{{id}}: reply failed ({{reason}}); trying again on its next change',
  cannotListQuestions: 'cannot list the questions ({{reason}})',
  questionFailed: 'question {{question}}: not answered ({{reason}})',
  capped: '{{id}}: already answered {{count}} time(s); this message is left to you',
  wouldReply: '{{id}}: would answer with {{name}}',
  replied: '{{id}}: answered with {{name}}',
  replyRefused: '{{id}}: reply refused ({{refusal}})',
  wouldAnswer: 'question {{question}} on #{{card}}: would answer with {{name}}',
  answered: 'question {{question}} on #{{card}}: answered with {{name}}',
  // backlog
  wouldEngage: '{{count}} open orders: would set the work mode',
  wouldRestore: '{{count}} open orders: would restore the work mode',
  engaged: '{{count}} open orders (more than {{above}}): work mode set to {{body}}',
  restored: '{{count}} open orders: work mode restored to {{body}}',
  cannotEngage: 'could not set the work mode: {{reason}}; trying again next round',
  cannotRestore: 'could not restore the work mode: {{reason}}; trying again next round',
  // webhooks
  webhookEvent: '{{event}} ({{delivery}}): polling now',
  webhookRefused: 'a delivery was refused: {{check}} (wrong secret, or not from the marketplace)',
  listening: 'listening for webhook deliveries at {{url}} (polling stays the source)',
  // what failed in an action (a deliver command or hook, a notification): a failure's own words
  'action.none': 'the action has neither a command nor a hook',
  'action.cannotStart': 'the command could not start: {{why}}',
  'action.timedOut': 'the command timed out after {{seconds}} s',
  'action.killed': 'the command was killed by {{signal}}',
  'action.exitCode': 'the command failed with exit code {{exitCode}}',
  'action.hookTimedOut': 'the hook did not answer within {{seconds}} s',
  'action.hookUnreachable': 'the hook could not be reached: {{why}}',
  'action.hookStatus': 'the hook answered HTTP {{httpStatus}}',
  'action.output': '{{action}}: {{output}}',
  'action.notJson': 'the action did not answer JSON ({"nextChargeDay"?, "note"?, "secret"?})',
  'action.notObject': 'the action did not answer a JSON object',
  'action.unknownField': 'the action answered an unknown field "{{field}}"',
  'action.notString': 'the action\'s "{{field}}" is not a string',
  'action.nextChargeFormat': 'the action\'s "nextChargeDay" is not YYYY-MM-DD',
  'action.nextChargeNotDate': 'the action\'s "nextChargeDay" {{day}} is not a real date',
  'action.nextChargePast': 'the action\'s "nextChargeDay" {{day}} is in the past (the service\'s today is {{today}})',
  // the runner
  started: 'autopilot started{{dry}}: {{rules}}; {{from}}',
  dryRun: ' (dry run: nothing is changed)',
  resumingFrom: 'resuming from {{since}}',
  firstRun: 'first run: every order is looked at once',
  stopped: 'autopilot stopped; everything in progress was finished and the state saved',
  paused: 'paused: delivering, repricing and auto-replies wait; watching, warnings and messages go on',
  unpaused: { one: 'resumed: {{count}} held order is delivered now', other: 'resumed: {{count}} held orders are delivered now' },
  keyFailed: 'the API key was refused ({{reason}}): the autopilot stops; check the key (seller whoami)',
  cannotList: 'cannot list the {{status}} orders ({{reason}}); the deadline guard and the backlog see them when they change',
  timedRuleFailed: 'a timed rule failed: {{reason}}',
  pollFailed: 'polling failed ({{reason}}); retrying in {{seconds}} s',
} as const satisfies Record<string, string | Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }>;

/** The id of a form: a key of {@link AUTOPILOT_WORDS}. */
export type AutopilotForm = keyof typeof AUTOPILOT_WORDS;

/**
 * What each value name holds, and so how it is shown:
 * - `text`: a name or id shown as it is (an order id, a rule or template name, a URL, a code the
 *   service or the webhook check gave: `noteRejected`, a verification reason);
 * - `number`, `count` (a number that chooses the plural), `rub` (whole roubles), `minutes`, `seconds`;
 * - `time`: an ISO moment; `orderStatus`, `productType`: the order's enum value; `phase`: a journal step;
 * - `webhookCheck`: why a webhook delivery did not verify (`WebhookVerificationError.reason`: `mismatch`, …);
 * - `rules`: rule names, a list; `contactKinds`: contact kinds found (`email`, `phone`, …), a list;
 * - `workMode`: the work mode fields sent (`{ capacity?, doNotDisturb? }`);
 * - `failure`: what failed, as data ({@link AutopilotFailure});
 * - `refusal`: a refusal of the service, `{ kind, reason? }`;
 * - `part`: a part of the line with a form of its own ({@link AutopilotSay}), or null when the line has none.
 */
export const AUTOPILOT_VALUES = {
  id: 'text',
  name: 'text',
  rule: 'text',
  question: 'text',
  event: 'text',
  channel: 'text',
  delivery: 'text',
  url: 'text',
  why: 'text',
  check: 'webhookCheck',
  signal: 'text',
  output: 'text',
  field: 'text',
  day: 'text',
  today: 'text',
  number: 'number',
  exitCode: 'number',
  httpStatus: 'number',
  card: 'number',
  lowAt: 'number',
  free: 'number',
  above: 'number',
  count: 'count',
  minutes: 'minutes',
  seconds: 'seconds',
  before: 'rub',
  after: 'rub',
  usual: 'rub',
  floor: 'rub',
  price: 'rub',
  ceiling: 'rub',
  deliverBy: 'time',
  since: 'time',
  status: 'orderStatus',
  productType: 'productType',
  phase: 'phase',
  rules: 'rules',
  kinds: 'contactKinds',
  body: 'workMode',
  reason: 'failure',
  refusal: 'refusal',
  filtered: 'part',
  dry: 'part',
  from: 'part',
  toward: 'part',
  action: 'part',
} as const;

export type AutopilotValueName = keyof typeof AUTOPILOT_VALUES;
export type AutopilotValueKind = (typeof AUTOPILOT_VALUES)[AutopilotValueName];

/** One value of a form (see {@link AUTOPILOT_VALUES} for what each name holds). */
export type AutopilotSayValue = string | number | boolean | null | readonly string[] | AutopilotSay | AutopilotFailure | { readonly [field: string]: unknown };

/** What an event says, as data: the form of its words and the values they name. */
export interface AutopilotSay {
  /** A key of {@link AUTOPILOT_WORDS} (a newer SDK may say a form a client does not know: show `message` then). */
  form: string;
  values: { [name: string]: AutopilotSayValue };
}

/** A failure as data: a service failure by its code (and refusal, detail…), an action's by its own words, else only the English. */
export interface AutopilotFailure {
  /** The English words of the failure, as the event's `message` says them. */
  message: string;
  /** A service failure (`SellerError`): its code (`connection`, `rate`, `rejected`, `not_found`…), as the server or the SDK gave it. */
  code?: string | undefined;
  /** Its HTTP status, when the service answered. */
  status?: number | undefined;
  /** The error answer's `detail` (data: `record`, `issues`…, or the service's English). */
  detail?: unknown;
  /** A refusal's kind, reason and values (`code` `rejected`). */
  refusal?: { kind: string; reason?: string | undefined; [value: string]: unknown } | undefined;
  /** No answer (`code` `connection`): the call's origin, the system's error code, or the time limit. */
  origin?: string | undefined;
  errno?: string | undefined;
  timedOut?: boolean | undefined;
  timeoutMs?: number | undefined;
  /** A failed action (a deliver command or hook, a notification): its last output lines, as it wrote them. */
  output?: string | undefined;
  /** The failure's own words as data, when it has them (an action's: a form `action.*`). */
  say?: AutopilotSay | undefined;
}

/** Whether a value is a say (a form and its values). */
export const isSay = (value: unknown): value is AutopilotSay =>
  typeof value === 'object' && value !== null && typeof (value as AutopilotSay).form === 'string' && typeof (value as AutopilotSay).values === 'object' && (value as AutopilotSay).values !== null;

/** The failure `error` as data; its `message` is what `reason()` says, or the error's whole message with `whole`. */
export function failureOf(error: unknown, whole = false): AutopilotFailure {
  const message = whole && error instanceof Error ? error.message : reason(error);
  if (!(error instanceof SellerError)) {
    // An error that carries its words as data (an ActionError), and an action's output.
    const { say, output } = (typeof error === 'object' && error !== null ? error : {}) as { say?: unknown; output?: unknown };
    return { message, ...(isSay(say) ? { say } : {}), ...(typeof output === 'string' ? { output } : {}) };
  }
  return {
    message,
    code: error.code,
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.detail !== undefined ? { detail: error.detail } : {}),
    ...(error instanceof RejectedError ? { refusal: { ...error.refusal } } : {}),
    ...(error instanceof ConnectionError
      ? { timedOut: error.timedOut, ...(error.origin !== undefined ? { origin: error.origin } : {}), ...(error.errno !== undefined ? { errno: error.errno } : {}), ...(error.timeoutMs !== undefined ? { timeoutMs: error.timeoutMs } : {}) }
      : {}),
  };
}

/** A refusal as a value: its kind and reason. */
export const refusalOf = (refusal: { kind: string; reason?: string | undefined }): { kind: string; reason?: string } => ({
  kind: refusal.kind,
  ...(refusal.reason !== undefined ? { reason: refusal.reason } : {}),
});

/** A part of a line with a form of its own. */
export const part = (form: AutopilotForm, values: AutopilotSay['values'] = {}): AutopilotSay => ({ form, values });

const plural = new Intl.PluralRules('en');

/** Contact kinds in English: `a phone number and an e-mail address` (the SDK's one wording, sdk/contact-words.ts). */
const contactKinds = (kinds: readonly string[]): string =>
  contactList(kinds.map((kind) => (Object.hasOwn(CONTACT_WORDS, kind) ? CONTACT_WORDS[kind as keyof typeof CONTACT_WORDS] : kind)));

/** One value in English, by what its name holds. */
function english(name: string, value: AutopilotSayValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (isSay(value)) return englishOf(value);
  const kind = (AUTOPILOT_VALUES as Record<string, string>)[name];
  if (kind === 'contactKinds' && Array.isArray(value)) return contactKinds(value);
  if (kind === 'workMode') return JSON.stringify(value);
  if (kind === 'failure') return (value as AutopilotFailure).message;
  if (kind === 'refusal') return (value as { kind: string }).kind;
  if (Array.isArray(value)) return value.join(', ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The template of a form for its values (the plural category of `count` where the form has plurals). */
export function templateOf(form: AutopilotForm, values: AutopilotSay['values']): string {
  const words: string | Partial<Record<Intl.LDMLPluralRule, string>> = AUTOPILOT_WORDS[form];
  if (typeof words === 'string') return words;
  return words[plural.select(Number(values['count']))] ?? words.other!;
}

/** What a say says in English (a form this SDK does not know: its id). */
export function englishOf(say: AutopilotSay): string {
  if (!Object.hasOwn(AUTOPILOT_WORDS, say.form)) return say.form;
  return templateOf(say.form as AutopilotForm, say.values).replace(/\{\{(\w+)\}\}/g, (_all, name: string) => english(name, say.values[name]));
}

/** An event's words: the form and values (`say`) and the English line (`message`) made from them. */
export function says(form: AutopilotForm, values: AutopilotSay['values'] = {}): { say: AutopilotSay; message: string } {
  const say = { form, values };
  return { say, message: englishOf(say) };
}
