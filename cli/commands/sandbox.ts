/**
 * `seller sandbox …`: drives the marketplace and buyer simulation of a LOCAL `seller-server`
 * (`/sandbox/v1`, gaps.md "The sandbox"). Never part of the real marketplace. Authenticated by the
 * server's admin token: `--admin-token` or `SERVICE_ADMIN_TOKEN`; the address is the usual
 * `--base-url` / `SERVICE_BASE_URL` / profile one.
 *
 * Verbs that create something print its id (or the key) alone on stdout, so scripts can capture
 * it (`ORDER=$(seller sandbox buy 1001)`); the description goes to stderr. `--json` prints the
 * whole answer.
 */
import { t } from '../i18n/index.ts';
import { dateTime, money, word } from '../i18n/format.ts';
import { Argument, Option, type Command } from 'commander';
import { SCOPES, type Scope } from '../../sdk/contract/common.ts';
import { SELLER_TYPES, type SellerType } from '../../sdk/contract/enums.ts';
import type { OrderWithMessages } from '../lib/records.ts';
import { SandboxClient } from '../../sdk/sandbox.ts';
import { nodeFetch } from '../lib/http.ts';
import { collect, positiveInt, type App, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, EXIT, UsageError } from '../lib/errors.ts';
import { RejectedError } from '../../sdk/errors.ts';
import { note, printJson, say, warn } from '../lib/output.ts';
import { durationSeconds, withHints } from './orders-common.ts';
import { registerRun } from './sandbox-run.ts';
import { registerFaults } from './sandbox-fault.ts';
import { registerTelegram } from './sandbox-telegram.ts';
import { printMoved, registerInspect } from './sandbox-inspect.ts';

/** The sandbox client of the invoked command: admin token from the flag or the environment. */
export function sandboxClient(deps: Deps, use: { stream?: boolean } = {}): SandboxClient {
  const flag = (deps.globals as { adminToken?: string }).adminToken;
  const adminToken = flag ?? deps.io.env.SERVICE_ADMIN_TOKEN;
  if (!adminToken) {
    throw new UsageError(
      t('sandbox.noAdminTokenPass'),
      t('sandbox.sellerServerPrintsIts'),
    );
  }
  const { baseUrl, strict } = deps.settings();
  // Through node:http as the seller's client (cli/lib/http.ts): in the `seller` bundle ky's Request is
  // the light one, which only this fetch reads. The change stream is read as it comes, which that
  // fetch (it answers once the body has ended) cannot do: it goes through Node's own, given a URL.
  const fetch = use.stream ? undefined : (nodeFetch as typeof globalThis.fetch);
  return new SandboxClient({ adminToken, baseUrl, strict, userAgent: 'seller-cli', fetch });
}

const STATE_HINT = (id: string) => t('sandbox.stateHint', { id });

export const register: Register = (noun, app) => {
  noun
    .option('--admin-token <token>', t('sandbox.adminTokenOfThe'))
    .addHelpText('after', t('sandbox.onlyForALocal'));
  registerSellers(noun, app);
  registerOrders(noun, app);
  registerOthers(noun, app);
  registerRun(noun, app);
  registerFaults(noun, app, sandboxClient);
  registerTelegram(noun, app, sandboxClient);
  registerInspect(noun, app, sandboxClient);
};

// ---------------------------------------------------------------------------------------------
// sellers

export interface CreateSellerOptions {
  sellerType?: SellerType | undefined;
  admission?: 'complete' | 'none' | undefined;
  test: boolean;
  scopes?: Scope[] | undefined;
}

function registerSellers(noun: Command, app: App): void {
  const seller = noun.command('seller').description(t('sandbox.createSellersAndChange'));
  seller
    .command('create')
    .description(t('sandbox.createASellerAnd'))
    .addOption(new Option('--type <type>', t('sandbox.sellerType')).choices(SELLER_TYPES))
    .addOption(new Option('--admission <state>', t('sandbox.admissionPapersFilledOr')).choices(['complete', 'none']))
    .option('--test', t('sandbox.aTestSellerTest'))
    .option('--scope <scope>', t('sandbox.aScopeOfThe', { scopes: SCOPES.join(', ') }), collect)
    .action(
      app.run(
        (o: { type?: SellerType; admission?: 'complete' | 'none'; test?: boolean; scope?: string[] }): CreateSellerOptions => {
          const unknown = (o.scope ?? []).filter((s) => !(SCOPES as readonly string[]).includes(s));
          if (unknown.length) throw new UsageError(t('sandbox.unknownScope', { unknown: unknown.join(', ') }), t('sandbox.scopes', { scopes: SCOPES.join(', ') }));
          return { sellerType: o.type, admission: o.admission, test: o.test === true, scopes: o.scope as Scope[] | undefined };
        },
        runCreateSeller,
      ),
    );
  seller
    .command('status')
    .description(t('sandbox.blockUnblockOrDemote'))
    .argument('<sellerId>', t('sandbox.sellerId'))
    .addArgument(new Argument('<status>', t('sandbox.newStatus')).choices(['active', 'blocked', 'not_seller']))
    .action(app.run((sellerId: string, status: 'active' | 'blocked' | 'not_seller') => ({ sellerId, status }), runSellerStatus));
  seller
    .command('admission')
    .description(t('sandbox.fillASellerS'))
    .argument('<sellerId>', t('sandbox.sellerId'))
    .argument('<state>', t('sandbox.completeOrNone'))
    .addOption(new Option('--type <type>', t('sandbox.sellerTypeWhenCompleting')).choices(SELLER_TYPES))
    .action(
      app.run((sellerId: string, state: string, o: { type?: SellerType }) => {
        if (state !== 'complete' && state !== 'none') throw new UsageError(t('sandbox.admissionIsNotComplete', { state }));
        return { sellerId, complete: state === 'complete', sellerType: o.type };
      }, runSellerAdmission),
    );
}

export async function runCreateSeller(opts: CreateSellerOptions, deps: Deps): Promise<void> {
  const created = await sandboxClient(deps).createSeller({
    sellerType: opts.sellerType,
    admission: opts.admission,
    mode: opts.test ? 'test' : undefined,
    scopes: opts.scopes,
  });
  if (wantsJson(deps)) {
    printJson(deps.io, created);
    return;
  }
  note(deps.io, t('sandbox.createdSellerWithKey', { sellerId: created.sellerId, keyId: created.keyId }));
  say(deps.io, created.apiKey);
  warn(deps.io, t('sandbox.thisIsTheOnly'));
}

export async function runSellerStatus(opts: { sellerId: string; status: 'active' | 'blocked' | 'not_seller' }, deps: Deps): Promise<void> {
  const answer = await sandboxClient(deps).setSellerStatus(opts.sellerId, { status: opts.status });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t('sandbox.sellerIsNow', { sellerId: answer.sellerId, status: answer.status }));
}

export async function runSellerAdmission(
  opts: { sellerId: string; complete: boolean; sellerType?: SellerType | undefined },
  deps: Deps,
): Promise<void> {
  const answer = await sandboxClient(deps).setAdmission(opts.sellerId, { complete: opts.complete, sellerType: opts.sellerType });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t(answer.sellerType ? 'sandbox.admissionOfIsNowTyped' : 'sandbox.admissionOfIsNow', { sellerId: answer.sellerId, state: t(answer.complete ? 'sandbox.complete' : 'sandbox.incomplete'), type: answer.sellerType }));
}

// ---------------------------------------------------------------------------------------------
// orders: the buyer and the marketplace

const ORDER_VERBS = ['pay', 'cancel', 'accept'] as const;
type OrderVerb = (typeof ORDER_VERBS)[number];

function registerOrders(noun: Command, app: App): void {
  noun
    .command('buy')
    .description(t('sandbox.aBuyerPressesBuy'))
    .argument('<number>', t('sandbox.cardNumber'), positiveInt)
    .option('--test-buyer', t('sandbox.buyAsATest'))
    .action(app.run((number: number, o: { testBuyer?: boolean }) => ({ number, testBuyer: o.testBuyer === true }), runBuy));
  for (const verb of ORDER_VERBS) {
    noun
      .command(verb)
      .description(t(`sandbox.verbs.${verb}`))
      .argument('<order>', t('sandbox.orderId'))
      .action(app.run((id: string) => ({ id, verb }), runOrderVerb));
  }
  noun
    .command('message')
    .description(t('sandbox.theBuyerWritesTo'))
    .argument('<order>', t('sandbox.orderId'))
    .requiredOption('--text <text>', t('sandbox.theMessage'))
    .action(app.run((id: string, o: { text: string }) => ({ id, text: o.text }), runBuyerMessage));
  noun
    .command('vault')
    .description(t('sandbox.theBuyerPutsCredentials'))
    .argument('<order>', t('sandbox.orderId'))
    .requiredOption('--secret <secret>', t('sandbox.theCredentialsASandbox'))
    .action(app.run((id: string, o: { secret: string }) => ({ id, secret: o.secret }), runBuyerVault));
  noun
    .command('dispute')
    .description(t('sandbox.theBuyerOpensA'))
    .argument('<order>', t('sandbox.orderId'))
    .requiredOption('--text <text>', t('sandbox.theBuyerSComplaint'))
    .action(app.run((id: string, o: { text: string }) => ({ id, text: o.text }), runDispute));
  noun
    .command('resolve')
    .description(t('sandbox.theMarketplaceResolvesA'))
    .argument('<order>', t('sandbox.orderId'))
    .addOption(new Option('--winner <side>', t('sandbox.whoWins')).choices(['seller', 'buyer']).makeOptionMandatory())
    .action(app.run((id: string, o: { winner: 'seller' | 'buyer' }) => ({ id, winner: o.winner }), runResolve));
  noun
    .command('review')
    .description(t('sandbox.theBuyerReviewsA'))
    .argument('<order>', t('sandbox.orderId'))
    .requiredOption('--stars <n>', t('sandbox.to'), positiveInt)
    .option('--text <text>', t('sandbox.theReviewText'), '')
    .action(app.run((id: string, o: { stars: number; text: string }) => ({ id, stars: o.stars, text: o.text }), runReview));
}

export async function runBuy(opts: { number: number; testBuyer: boolean }, deps: Deps): Promise<void> {
  const order = await withHints(sandboxClient(deps).createOrder({ number: opts.number, testBuyer: opts.testBuyer || undefined }), {
    test_card: t('sandbox.hints.testCard'),
    real_card: t('sandbox.hints.realCard'),
    inactive: t('sandbox.hints.inactive', { number: opts.number }),
  });
  if (wantsJson(deps)) {
    printJson(deps.io, order);
    return;
  }
  say(deps.io, order.id);
  note(deps.io, t('sandbox.orderCardRub', { id: order.id, number: order.number, price: money(order.priceRub), status: word('orderStatus', order.status) }));
}

/** `Paid ord_…: now awaiting_delivery.`: `what` names the line under `sandbox.states.`. */
function printOrderState(deps: Deps, order: OrderWithMessages, what: string, values: Record<string, string> = {}): void {
  if (wantsJson(deps)) printJson(deps.io, order);
  else say(deps.io, t(`sandbox.states.${what}`, { ...values, id: order.id, status: word('orderStatus', order.status), action: order.needsAction ? t('sandbox.needsAction') : '' }));
}

export async function runOrderVerb(opts: { id: string; verb: OrderVerb }, deps: Deps): Promise<void> {
  const sb = sandboxClient(deps);
  const call = opts.verb === 'pay' ? sb.pay(opts.id) : opts.verb === 'cancel' ? sb.cancel(opts.id) : sb.accept(opts.id);
  const order = await withHints(call, { state_moved: STATE_HINT(opts.id) });
  printOrderState(deps, order, opts.verb);
}

export async function runBuyerMessage(opts: { id: string; text: string }, deps: Deps): Promise<void> {
  const message = await withHints(sandboxClient(deps).message(opts.id, { text: opts.text }), { state_moved: STATE_HINT(opts.id) });
  if (wantsJson(deps)) printJson(deps.io, message);
  else say(deps.io, t('sandbox.theBuyerWroteOn', { id: message.id, id2: opts.id }));
}

export async function runBuyerVault(opts: { id: string; secret: string }, deps: Deps): Promise<void> {
  const order = await withHints(sandboxClient(deps).vault(opts.id, { secret: opts.secret }), { state_moved: STATE_HINT(opts.id) });
  printOrderState(deps, order, 'vault');
}

export async function runDispute(opts: { id: string; text: string }, deps: Deps): Promise<void> {
  const order = await withHints(sandboxClient(deps).dispute(opts.id, { text: opts.text }), { state_moved: STATE_HINT(opts.id) });
  printOrderState(deps, order, 'dispute');
}

export async function runResolve(opts: { id: string; winner: 'seller' | 'buyer' }, deps: Deps): Promise<void> {
  const order = await withHints(sandboxClient(deps).resolve(opts.id, { winner: opts.winner }), { state_moved: STATE_HINT(opts.id) });
  printOrderState(deps, order, 'resolve', { winner: t(`sandbox.winners.${opts.winner}`) });
}

export async function runReview(opts: { id: string; stars: number; text: string }, deps: Deps): Promise<void> {
  if (opts.stars > 5) throw new UsageError(t('sandbox.starsTo'));
  const review = await withHints(sandboxClient(deps).review(opts.id, { stars: opts.stars, text: opts.text }), {
    state_moved: t('sandbox.hints.reviewCompleted'),
  });
  if (wantsJson(deps)) {
    printJson(deps.io, review);
    return;
  }
  say(deps.io, review.id);
  note(deps.io, t('sandbox.reviewOnCardStars', { id: review.id, number: review.number, count: review.stars }));
}

// ---------------------------------------------------------------------------------------------
// questions, catalogue requests, the clock

function registerOthers(noun: Command, app: App): void {
  noun
    .command('question')
    .description(t('sandbox.aBuyerAsksA'))
    .argument('<number>', t('sandbox.cardNumber'), positiveInt)
    .requiredOption('--text <text>', t('sandbox.theQuestion'))
    .action(app.run((number: number, o: { text: string }) => ({ number, text: o.text }), runQuestion));
  noun
    .command('decide')
    .description(t('sandbox.approveOrRejectA'))
    .argument('<request>', t('sandbox.requestIdReq'))
    .option('--approve', t('sandbox.approveIt'))
    .option('--reject', t('sandbox.rejectIt'))
    .action(
      app.run((id: string, o: { approve?: boolean; reject?: boolean }) => {
        if (o.approve === o.reject) throw new UsageError(t('sandbox.passExactlyOneOf'));
        return { id, approve: o.approve === true };
      }, runDecide),
    );
  noun
    .command('clock')
    .description(t('sandbox.showTheServerClock'))
    .argument('[verb]', t('sandbox.advance'))
    .argument('[amount]', t('sandbox.secondsOrAnAmount'))
    .option('--force', t('sandbox.clockForce'))
    .action(app.run(parseClock, runClock));
}

export async function runQuestion(opts: { number: number; text: string }, deps: Deps): Promise<void> {
  const question = await sandboxClient(deps).createQuestion({ number: opts.number, text: opts.text });
  if (wantsJson(deps)) {
    printJson(deps.io, question);
    return;
  }
  say(deps.io, question.id);
  note(deps.io, t('sandbox.questionOnCard', { id: question.id, number: question.number }));
}

export async function runDecide(opts: { id: string; approve: boolean }, deps: Deps): Promise<void> {
  const request = await withHints(sandboxClient(deps).decideCatalogRequest(opts.id, { approve: opts.approve }), {
    already_decided: t('sandbox.hints.alreadyDecided'),
  });
  if (wantsJson(deps)) printJson(deps.io, request);
  else say(deps.io, t('sandbox.requestIsNow', { id: request.id, title: request.title, status: word('requestStatus', request.status) }));
}

export interface ClockOptions {
  advanceSeconds?: number | undefined;
  /** Move it even while a scenario run holds the clock's lease. */
  force?: boolean | undefined;
}

export function parseClock(verb: string | undefined, amount: string | undefined, o: { force?: boolean } = {}): ClockOptions {
  if (verb === undefined) return {};
  if (verb !== 'advance') throw new UsageError(t('sandbox.clockUnknownVerb', { verb }), t('sandbox.useSellerSandboxClock'));
  const seconds = amount === undefined ? undefined : durationSeconds(amount);
  if (seconds === undefined) throw new UsageError(t('sandbox.clockAdvanceGiveAn'));
  return { advanceSeconds: seconds, ...(o.force ? { force: true } : {}) };
}

export async function runClock(opts: ClockOptions, deps: Deps): Promise<void> {
  const sb = sandboxClient(deps);
  if (opts.advanceSeconds !== undefined) {
    const moved = await advance(sb, opts.advanceSeconds, opts.force);
    if (wantsJson(deps)) return printJson(deps.io, moved);
    say(deps.io, dateTime(moved.now) ?? moved.now);
    // A tolerant reader: an older server's answer has no `moved`.
    if ('moved' in moved) printMoved(deps, moved.moved as Parameters<typeof printMoved>[1]);
    return;
  }
  const clock = await sb.clock();
  if (wantsJson(deps)) return printJson(deps.io, clock);
  say(deps.io, dateTime(clock.now) ?? clock.now);
  const lease = clock.lease;
  if (lease) note(deps.io, t('sandbox.clockLeasedBy', { holder: lease.holder, until: dateTime(lease.expiresAt) ?? lease.expiresAt }));
}

/** The clock moved; a refusal while a scenario run holds its lease names the run, the lease's end and --force. */
async function advance(sb: ReturnType<typeof sandboxClient>, seconds: number, force: boolean | undefined) {
  try {
    return await sb.advanceClock({ seconds, ...(force ? { force: true } : {}) });
  } catch (error) {
    if (!(error instanceof RejectedError) || error.refusal.kind !== 'clock_leased') throw error;
    const { holder, until } = error.refusal as { holder?: unknown; until?: unknown };
    const words = typeof holder === 'string' && typeof until === 'string' ? t('sandbox.clockLeased', { holder, until: dateTime(until) ?? until }) : t('refusals.clock_leased');
    throw new CliError(words, EXIT.error, t('sandbox.clockLeasedHint'), error);
  }
}
