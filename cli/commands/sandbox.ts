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
import { Argument, Option, type Command } from 'commander';
import { SCOPES, type Scope } from '../../sdk/contract/common.ts';
import { SELLER_TYPES, type SellerType } from '../../sdk/contract/enums.ts';
import type { OrderWithMessages } from '../lib/records.ts';
import { SandboxClient } from '../../sdk/sandbox.ts';
import { collect, positiveInt, type App, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { note, printJson, say, warn } from '../lib/output.ts';
import { durationSeconds, withHints } from './orders-common.ts';

/** The sandbox client of the invoked command: admin token from the flag or the environment. */
export function sandboxClient(deps: Deps): SandboxClient {
  const flag = (deps.globals as { adminToken?: string }).adminToken;
  const adminToken = flag ?? deps.io.env.SERVICE_ADMIN_TOKEN;
  if (!adminToken) {
    throw new UsageError(
      'no admin token: pass --admin-token or set SERVICE_ADMIN_TOKEN',
      'seller-server prints its admin token at start, or takes one with --admin-token',
    );
  }
  const { baseUrl, strict } = deps.settings();
  return new SandboxClient({ adminToken, baseUrl, strict, userAgent: 'seller-cli' });
}

const STATE_HINT = (id: string) => `the order is in another state; see \`seller orders show ${id}\` (with the seller's key)`;

export const register: Register = (noun, app) => {
  noun
    .option('--admin-token <token>', 'admin token of the local seller-server (env SERVICE_ADMIN_TOKEN)')
    .addHelpText('after', '\nOnly for a local seller-server: the sandbox plays the marketplace and the buyer.\n\nExamples:\n  $ order=$(seller sandbox buy 1001) && seller sandbox pay "$order"\n  $ seller sandbox clock advance 2h');
  registerSellers(noun, app);
  registerOrders(noun, app);
  registerOthers(noun, app);
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
  const seller = noun.command('seller').description('Create sellers and change their status or admission');
  seller
    .command('create')
    .description('Create a seller and its first key (shown once)')
    .addOption(new Option('--type <type>', 'seller type').choices(SELLER_TYPES))
    .addOption(new Option('--admission <state>', 'admission papers filled or not').choices(['complete', 'none']))
    .option('--test', 'a test seller (test key, test cards only)')
    .option('--scope <scope>', `a scope of the key, repeatable (default all): ${SCOPES.join(', ')}`, collect)
    .action(
      app.run(
        (o: { type?: SellerType; admission?: 'complete' | 'none'; test?: boolean; scope?: string[] }): CreateSellerOptions => {
          const unknown = (o.scope ?? []).filter((s) => !(SCOPES as readonly string[]).includes(s));
          if (unknown.length) throw new UsageError(`unknown scope ${unknown.join(', ')}`, `scopes: ${SCOPES.join(', ')}`);
          return { sellerType: o.type, admission: o.admission, test: o.test === true, scopes: o.scope as Scope[] | undefined };
        },
        runCreateSeller,
      ),
    );
  seller
    .command('status')
    .description('Block, unblock or demote a seller')
    .argument('<sellerId>', 'seller id')
    .addArgument(new Argument('<status>', 'the new status').choices(['active', 'blocked', 'not_seller']))
    .action(app.run((sellerId: string, status: 'active' | 'blocked' | 'not_seller') => ({ sellerId, status }), runSellerStatus));
  seller
    .command('admission')
    .description("Fill a seller's papers with fixture values (complete), or clear them (none)")
    .argument('<sellerId>', 'seller id')
    .argument('<state>', 'complete or none')
    .addOption(new Option('--type <type>', 'seller type when completing').choices(SELLER_TYPES))
    .action(
      app.run((sellerId: string, state: string, o: { type?: SellerType }) => {
        if (state !== 'complete' && state !== 'none') throw new UsageError(`admission: "${state}" is not complete or none`);
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
  note(deps.io, `Created seller ${created.sellerId} with key ${created.keyId}:`);
  say(deps.io, created.apiKey);
  warn(deps.io, 'this is the only time the key is shown. Use it with SERVICE_API_KEY=… or `seller login`.');
}

export async function runSellerStatus(opts: { sellerId: string; status: 'active' | 'blocked' | 'not_seller' }, deps: Deps): Promise<void> {
  const answer = await sandboxClient(deps).setSellerStatus(opts.sellerId, { status: opts.status });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, `Seller ${answer.sellerId} is now ${answer.status}.`);
}

export async function runSellerAdmission(
  opts: { sellerId: string; complete: boolean; sellerType?: SellerType | undefined },
  deps: Deps,
): Promise<void> {
  const answer = await sandboxClient(deps).setAdmission(opts.sellerId, { complete: opts.complete, sellerType: opts.sellerType });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, `Admission of ${answer.sellerId} is now ${answer.complete ? 'complete' : 'incomplete'}${answer.sellerType ? ` (${answer.sellerType})` : ''}.`);
}

// ---------------------------------------------------------------------------------------------
// orders: the buyer and the marketplace

type OrderVerb = 'pay' | 'cancel' | 'accept';

function registerOrders(noun: Command, app: App): void {
  noun
    .command('buy')
    .description('A buyer presses buy on a card: prints the new order id')
    .argument('<number>', 'card number', positiveInt)
    .option('--test-buyer', 'buy as a test buyer (test cards only)')
    .action(app.run((number: number, o: { testBuyer?: boolean }) => ({ number, testBuyer: o.testBuyer === true }), runBuy));
  const verbs: Record<OrderVerb, string> = {
    pay: 'The buyer pays (the SLA clock starts)',
    cancel: 'The buyer cancels an unpaid or undelivered order',
    accept: 'The buyer confirms receipt (the order completes)',
  };
  for (const verb of Object.keys(verbs) as OrderVerb[]) {
    noun
      .command(verb)
      .description(verbs[verb])
      .argument('<order>', 'order id')
      .action(app.run((id: string) => ({ id, verb }), runOrderVerb));
  }
  noun
    .command('message')
    .description('The buyer writes to the seller')
    .argument('<order>', 'order id')
    .requiredOption('--text <text>', 'the message')
    .action(app.run((id: string, o: { text: string }) => ({ id, text: o.text }), runBuyerMessage));
  noun
    .command('vault')
    .description("The buyer puts credentials into the buyer's vault")
    .argument('<order>', 'order id')
    .requiredOption('--secret <secret>', 'the credentials (a sandbox buyer: a flag is fine here)')
    .action(app.run((id: string, o: { secret: string }) => ({ id, secret: o.secret }), runBuyerVault));
  noun
    .command('dispute')
    .description('The buyer opens a dispute')
    .argument('<order>', 'order id')
    .requiredOption('--text <text>', "the buyer's complaint")
    .action(app.run((id: string, o: { text: string }) => ({ id, text: o.text }), runDispute));
  noun
    .command('resolve')
    .description('The marketplace resolves a dispute')
    .argument('<order>', 'order id')
    .addOption(new Option('--winner <side>', 'who wins').choices(['seller', 'buyer']).makeOptionMandatory())
    .action(app.run((id: string, o: { winner: 'seller' | 'buyer' }) => ({ id, winner: o.winner }), runResolve));
  noun
    .command('review')
    .description('The buyer reviews a completed order')
    .argument('<order>', 'order id')
    .requiredOption('--stars <n>', '1 to 5', positiveInt)
    .option('--text <text>', 'the review text', '')
    .action(app.run((id: string, o: { stars: number; text: string }) => ({ id, stars: o.stars, text: o.text }), runReview));
}

export async function runBuy(opts: { number: number; testBuyer: boolean }, deps: Deps): Promise<void> {
  const order = await withHints(sandboxClient(deps).createOrder({ number: opts.number, testBuyer: opts.testBuyer || undefined }), {
    test_card: 'this is a test card: buy it with --test-buyer',
    real_card: 'a test buyer can buy only test cards: drop --test-buyer',
    inactive: `switch the card on first: \`seller cards on ${opts.number}\``,
  });
  if (wantsJson(deps)) {
    printJson(deps.io, order);
    return;
  }
  say(deps.io, order.id);
  note(deps.io, `Order ${order.id}: card #${order.number}, ${order.priceRub} RUB, ${order.status}.`);
}

function printOrderState(deps: Deps, order: OrderWithMessages, what: string): void {
  if (wantsJson(deps)) printJson(deps.io, order);
  else say(deps.io, `${what} ${order.id}: now ${order.status}${order.needsAction ? ' (the seller needs to act)' : ''}.`);
}

export async function runOrderVerb(opts: { id: string; verb: OrderVerb }, deps: Deps): Promise<void> {
  const sb = sandboxClient(deps);
  const call = opts.verb === 'pay' ? sb.pay(opts.id) : opts.verb === 'cancel' ? sb.cancel(opts.id) : sb.accept(opts.id);
  const order = await withHints(call, { state_moved: STATE_HINT(opts.id) });
  printOrderState(deps, order, { pay: 'Paid', cancel: 'Cancelled', accept: 'Accepted' }[opts.verb]);
}

export async function runBuyerMessage(opts: { id: string; text: string }, deps: Deps): Promise<void> {
  const message = await withHints(sandboxClient(deps).message(opts.id, { text: opts.text }), { state_moved: STATE_HINT(opts.id) });
  if (wantsJson(deps)) printJson(deps.io, message);
  else say(deps.io, `The buyer wrote ${message.id} on ${opts.id}.`);
}

export async function runBuyerVault(opts: { id: string; secret: string }, deps: Deps): Promise<void> {
  const order = await withHints(sandboxClient(deps).vault(opts.id, { secret: opts.secret }), { state_moved: STATE_HINT(opts.id) });
  printOrderState(deps, order, 'The buyer filled the vault of');
}

export async function runDispute(opts: { id: string; text: string }, deps: Deps): Promise<void> {
  const order = await withHints(sandboxClient(deps).dispute(opts.id, { text: opts.text }), { state_moved: STATE_HINT(opts.id) });
  printOrderState(deps, order, 'Disputed');
}

export async function runResolve(opts: { id: string; winner: 'seller' | 'buyer' }, deps: Deps): Promise<void> {
  const order = await withHints(sandboxClient(deps).resolve(opts.id, { winner: opts.winner }), { state_moved: STATE_HINT(opts.id) });
  printOrderState(deps, order, `Resolved for the ${opts.winner}:`);
}

export async function runReview(opts: { id: string; stars: number; text: string }, deps: Deps): Promise<void> {
  if (opts.stars > 5) throw new UsageError('--stars: 1 to 5');
  const review = await withHints(sandboxClient(deps).review(opts.id, { stars: opts.stars, text: opts.text }), {
    state_moved: 'only a completed order can be reviewed',
  });
  if (wantsJson(deps)) {
    printJson(deps.io, review);
    return;
  }
  say(deps.io, review.id);
  note(deps.io, `Review ${review.id} on card #${review.number}: ${review.stars} stars.`);
}

// ---------------------------------------------------------------------------------------------
// questions, catalogue requests, the clock

function registerOthers(noun: Command, app: App): void {
  noun
    .command('question')
    .description('A buyer asks a question about a card')
    .argument('<number>', 'card number', positiveInt)
    .requiredOption('--text <text>', 'the question')
    .action(app.run((number: number, o: { text: string }) => ({ number, text: o.text }), runQuestion));
  noun
    .command('decide')
    .description('Approve or reject a catalogue request')
    .argument('<request>', 'request id (req_…)')
    .option('--approve', 'approve it')
    .option('--reject', 'reject it')
    .action(
      app.run((id: string, o: { approve?: boolean; reject?: boolean }) => {
        if (o.approve === o.reject) throw new UsageError('pass exactly one of --approve and --reject');
        return { id, approve: o.approve === true };
      }, runDecide),
    );
  noun
    .command('clock')
    .description("Show the server clock, or move it forward: `clock advance 2h` (deadlines due by then run)")
    .argument('[verb]', 'advance')
    .argument('[amount]', 'seconds, or an amount such as 90s, 15m, 1h, 2d, 1w')
    .action(app.run(parseClock, runClock));
}

export async function runQuestion(opts: { number: number; text: string }, deps: Deps): Promise<void> {
  const question = await sandboxClient(deps).createQuestion({ number: opts.number, text: opts.text });
  if (wantsJson(deps)) {
    printJson(deps.io, question);
    return;
  }
  say(deps.io, question.id);
  note(deps.io, `Question ${question.id} on card #${question.number}.`);
}

export async function runDecide(opts: { id: string; approve: boolean }, deps: Deps): Promise<void> {
  const request = await withHints(sandboxClient(deps).decideCatalogRequest(opts.id, { approve: opts.approve }), {
    already_decided: 'this request was already decided',
  });
  if (wantsJson(deps)) printJson(deps.io, request);
  else say(deps.io, `Request ${request.id} "${request.title}" is now ${request.status}.`);
}

export interface ClockOptions {
  advanceSeconds?: number | undefined;
}

export function parseClock(verb: string | undefined, amount: string | undefined): ClockOptions {
  if (verb === undefined) return {};
  if (verb !== 'advance') throw new UsageError(`clock: unknown verb "${verb}"`, 'use `seller sandbox clock` or `seller sandbox clock advance 2h`');
  const seconds = amount === undefined ? undefined : durationSeconds(amount);
  if (seconds === undefined) throw new UsageError('clock advance: give an amount such as 3600, 90s, 15m, 1h, 2d or 1w');
  return { advanceSeconds: seconds };
}

export async function runClock(opts: ClockOptions, deps: Deps): Promise<void> {
  const sb = sandboxClient(deps);
  const answer = opts.advanceSeconds === undefined ? await sb.clock() : await sb.advanceClock({ seconds: opts.advanceSeconds });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, answer.now);
}
