/**
 * service-seller/autopilot: the seller's bot as a library. A configuration (checked with zod;
 * `defineAutopilot()` types it) of optional rules (deliver, deadline guard, backlog, stock care,
 * repricing, replies) and a runner on `client.orders.watch()` that keeps its watermark and a
 * delivery journal in a state file, so that a restart after a crash handles each order once.
 * `seller autopilot --config FILE` is this runner with a status line per event.
 *
 * @example
 * import { SellerClient } from 'service-seller';
 * import { defineAutopilot, runAutopilot } from 'service-seller/autopilot';
 * const config = defineAutopilot({ deliver: [{ match: { productType: 'subscription' }, action: { command: './activate.sh' } }] });
 * const stop = new AbortController();
 * process.once('SIGINT', () => stop.abort());
 * await runAutopilot(new SellerClient(), config, { statePath: '.autopilot-state.json', signal: stop.signal, onEvent: (e) => console.log(e.message) });
 *
 * To stay within the key's rate budget (about one call per delivered order, a 429 waited out by
 * its Retry-After), give the client `pacedFetch`, as `seller autopilot` does:
 * `new SellerClient({ fetch: pacedFetch(globalThis.fetch) })`.
 */
export { AutopilotConfig, AutopilotConfigError, defineAutopilot, orderLink, parseAutopilotConfig, type AutopilotConfigIssue } from './config.ts';
export type { AutopilotConfigInput, DeliverRule, Match, Action, Notify, NotifyConfig, TelegramNotify } from './config.ts';
export { NEEDS_A_HUMAN, SALES, NotifyFailure, chosen } from './outbox.ts';
export type { NotifyChannel } from './outbox.ts';
export { loadAutopilotConfig } from './load.ts';
export { Autopilot, runAutopilot } from './runner.ts';
export { startEventReceiver } from './listener.ts';
export type { EventReceiver, ListenConfig, ReceiverCallbacks } from './listener.ts';
export type { AutopilotOptions, AutopilotSummary } from './runner.ts';
export type { AutopilotEvent, AutopilotRuleName, EventSink } from './events.ts';
export { AUTOPILOT_VALUES, AUTOPILOT_WORDS, englishOf } from './words.ts';
export type { AutopilotFailure, AutopilotForm, AutopilotSay, AutopilotSayValue, AutopilotValueKind, AutopilotValueName } from './words.ts';
export { emptyState, fileAutopilotStore, memoryAutopilotStore } from './state.ts';
export type { AutopilotState, AutopilotStore, JournalEntry, JournalPhase, OutboxEntry } from './state.ts';
export { ServiceClock } from './clock.ts';
export { ActionError, lastLines } from './actions.ts';
export { pacedFetch } from '../pacing.ts';
export { movedMessage, movedSays } from './rules/moved.ts';
export type { DeliveryOutput } from './actions.ts';
// The rules' decisions, pure functions (for tests of a configuration, or a bot of your own).
export { pickDeliverRule, noteToSend } from './rules/deliver.ts';
export { dueWarnings } from './rules/deadline.ts';
export type { Warning } from './rules/deadline.ts';
export { backlogStep } from './rules/backlog.ts';
export { stockStep } from './rules/stock.ts';
export { repriceStep } from './rules/reprice.ts';
export { replyStep, matchTemplate } from './rules/replies.ts';
