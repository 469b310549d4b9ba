/**
 * The autopilot's lines in the seller's language. The SDK's events are data (sdk/autopilot/words.ts):
 * `say.form` names the words, `say.values` the values they name, raw. The CLI says each form from its
 * catalogue (`autopilot.events.<form>`, the same forms as the SDK's English table:
 * test/cli/autopilot-forms.test.ts), with each value shown as the language writes it by what its name
 * holds (`AUTOPILOT_VALUES`: money, times, plurals, statuses, product types, contact kinds, refusals
 * and service failures in words). Nothing is read back from the English.
 *
 * In English the SDK's `message` is printed as it came: it is made from the same English the
 * English catalogue holds. An event without `say`, or whose form (or a part's) the catalogue does
 * not have (a newer SDK's), is printed as its `message` says it, in English (a tolerant reader).
 */
import { reasonWords } from './hooks-reasons.ts';
import { has, language, t, tOr } from '../i18n/index.ts';
import { dateTime, listed, money, word } from '../i18n/format.ts';
import { contactWord } from '../i18n/contacts.ts';
import { detailWords, refusalWords } from '../i18n/error-words.ts';
import { connectionWords } from '../lib/errors.ts';
import type { AutopilotEvent } from '../../sdk/autopilot/events.ts';
import { AUTOPILOT_VALUES, isSay, type AutopilotFailure, type AutopilotSay, type AutopilotValueKind } from '../../sdk/autopilot/words.ts';

const EVENTS = 'autopilot.events';
/** The words of a form under the columns that already say the rule and type (`autopilot started`). */
const SHORT = 'autopilot.short';

/** The catalogue has a message (not a group of them) under `key`. */
const isMessage = (key: string): boolean => has(key) && typeof (t(key, { returnObjects: true }) as unknown) === 'string';

/** Forms looked up, by language (a burst of sales says the same few forms a thousand times). */
const known = new Map<string, boolean>();

/** The catalogue has the form (a plural one as its `_other`). */
const knownForm = (form: string): boolean => {
  const key = `${language()}\u0000${form}`;
  let found = known.get(key);
  if (found === undefined) known.set(key, (found = isMessage(`${EVENTS}.${form}`) || isMessage(`${EVENTS}.${form}_other`)));
  return found;
};

/** Whether the catalogue has words for the say and every part of it. */
export function knows(say: AutopilotSay): boolean {
  return knownForm(say.form) && Object.values(say.values).every((value) => !isSay(value) || knows(value));
}

/** A failure in words: its own words (an action's), a refusal's, a service failure's by its code, else the English it came with. */
export function failureWords(failure: AutopilotFailure, short = false): string {
  if (isSay(failure.say) && knows(failure.say)) return sayIt(failure.say, short);
  if (failure.refusal && typeof failure.refusal.kind === 'string') return refusalWords(failure.refusal) ?? failure.message;
  if (failure.code === 'connection') return connectionWords(failure as Parameters<typeof connectionWords>[0]);
  if (typeof failure.code === 'string') {
    const said = detailWords(failure.code, failure.detail);
    if (said !== undefined) return said;
    if (has(`errors.detail.${failure.code}`)) return t(`errors.detail.${failure.code}`);
  }
  return failure.message ?? '';
}


/** The work mode the backlog rule set or restored (`{capacity?, doNotDisturb?}`), in words; a field not known here as JSON. */
function workModeWords(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const parts: string[] = [];
  for (const [field, set] of Object.entries(value)) {
    if (field === 'capacity' && (set === null || typeof set === 'number')) {
      parts.push(t('autopilot.workModeParts.capacity', { value: set === null ? t('workMode.noLimit') : t('workMode.atATime', { count: set }) }));
    } else if (field === 'doNotDisturb' && typeof set === 'boolean') {
      parts.push(t('autopilot.workModeParts.doNotDisturb', { value: set ? t('workMode.on') : t('workMode.off') }));
    } else parts.push(`${field}: ${JSON.stringify(set)}`);
  }
  return parts.length > 0 ? parts.join(', ') : JSON.stringify(value);
}

/** How each kind of value is shown in the active language (the SDK declares which name holds which kind). */
const SHOW: Record<AutopilotValueKind, (value: unknown) => unknown> = {
  text: String,
  number: String,
  count: Number,
  minutes: String,
  seconds: String,
  rub: (value) => money(Number(value)),
  time: (value) => dateTime(String(value)),
  orderStatus: (value) => word('orderStatus', String(value)),
  productType: (value) => word('productType', String(value)),
  phase: (value) => tOr(`autopilot.phases.${String(value)}`, String(value)),
  rules: (value) => (Array.isArray(value) ? value.join(', ') : String(value)),
  contactKinds: (value) => (Array.isArray(value) ? listed(value.map((kind) => contactWord(String(kind)))) : String(value)),
  workMode: workModeWords,
  failure: (value) => (typeof value === 'object' && value !== null ? failureWords(value as AutopilotFailure) : String(value)),
  refusal: (value) => {
    const refusal = value as { kind?: unknown; reason?: unknown };
    return typeof refusal?.kind === 'string' ? (refusalWords({ kind: refusal.kind, reason: refusal.reason }) ?? refusal.kind) : String(value);
  },
  webhookCheck: (value) => reasonWords(String(value)),
  part: String,
};

function show(name: string, value: unknown, short: boolean): unknown {
  if (value === null || value === undefined) return '';
  if (isSay(value)) return sayIt(value, short);
  const kind = (AUTOPILOT_VALUES as Record<string, AutopilotValueKind>)[name];
  return kind === undefined ? (typeof value === 'object' ? JSON.stringify(value) : String(value)) : SHOW[kind](value);
}

/** A known say in the active language; `short`: the form's words under the columns, where it has some. */
function sayIt(say: AutopilotSay, short: boolean): string {
  const values = Object.fromEntries(Object.entries(say.values).map(([name, value]) => [name, show(name, value, short)]));
  const key = short && has(`${SHORT}.${say.form}`) ? `${SHORT}.${say.form}` : `${EVENTS}.${say.form}`;
  return t(key, values);
}

/** Whether the event's words start with its rule and type (`autopilot started: …`), which the line's columns already say. */
export function repeatsColumns(event: AutopilotEvent): boolean {
  if (isSay(event.say) && knows(event.say)) return has(`${SHORT}.${event.say.form}`);
  // i18next-instrument-ignore-next-line: the SDK's English words a line starts with, matched
  return event.message.startsWith(`${event.rule} ${event.type}`);
}

/**
 * The event's message for people in the active language; `short`: without the rule and type it
 * starts with (`autopilot started: …` under the columns `autopilot started`).
 */
export function eventMessage(event: AutopilotEvent, short = false): string {
  // i18next-instrument-ignore-next-line: the SDK's English words a line starts with, matched
  const said = `${event.rule} ${event.type}`;
  const english = short && event.message.startsWith(said) ? event.message.slice(said.length).replace(/^[:;,]?\s*/, '') : event.message;
  if (!isSay(event.say) || !knows(event.say)) return english;
  // English lines are the SDK's own, but for the short words under the columns.
  if (language() === 'en' && !(short && has(`${SHORT}.${event.say.form}`))) return english;
  return sayIt(event.say, short);
}

/** An event type for people: a word in Russian, the raw type in English (and for a type not known here). */
export function eventType(type: string): string {
  const key = `autopilot.types.${type}`;
  return has(key) ? t(key) : type;
}
