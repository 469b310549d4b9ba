/**
 * `seller papers show|nickname|accept-offer|status|confirm-registry|payout`: the admission papers
 * (scope `documents`). Until they are complete every new card is a test card; `papers show` says
 * what is missing and the command that fills each gap.
 *
 * What can be checked offline is checked before any call, with the SDK's validators (the server
 * runs the same ones): the INN against the seller type, and the payout details (BIK, account
 * control digit, KPP, SBP phone). The full account number is never printed: only the last four
 * digits the server answers.
 */
import { Option } from 'commander';
import type { z } from 'zod';
import { labelOf, type Papers } from '../lib/records.ts';
import { accountOperations } from '../../sdk/contract/account.ts';
import { SELLER_TYPES, type SellerType } from '../../sdk/contract/enums.ts';
import {
  normalizePhone,
  validateAccount,
  validateBik,
  validateInn,
  validateKpp,
  validatePayout,
  validatePhone,
  type CheckResult,
  type PayoutInput,
} from '../../sdk/validate/index.ts';
import type { Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { isInteractive } from '../lib/io.ts';
import { note, printFields, printJson, say, warn } from '../lib/output.ts';
import { flagOrAsk } from '../lib/prompts.ts';
import { readTextInput } from '../lib/input.ts';
import { chompNewline, withHints } from './orders-common.ts';

type PapersView = Papers;
type Missing = PapersView['missing'][number];
type PayoutMethod = 'account' | 'sbp';

const PAYOUT_METHODS = ['account', 'sbp'] as const;

export interface StatusOptions {
  type?: SellerType | undefined;
  inn?: string | undefined;
}

export interface PayoutOptions {
  method?: PayoutMethod | undefined;
  bik?: string | undefined;
  account?: string | undefined;
  accountFile?: string | undefined;
  name?: string | undefined;
  kpp?: string | undefined;
  phone?: string | undefined;
}

export const register: Register = (noun, app) => {
  noun
    .command('show')
    .description('Show the papers: what is filled, whether admission is complete, what is missing')
    .action(app.run(() => ({}), runPapersShow));
  noun
    .command('nickname')
    .description('Set your public nickname (3-32 letters, digits, _ . -; unique)')
    .argument('[name]', 'the nickname')
    .action(app.run((name: string | undefined) => ({ name }), runPapersNickname));
  noun
    .command('accept-offer')
    .description('Accept the seller offer')
    .action(app.run(() => ({}), runPapersAcceptOffer));
  noun
    .command('status')
    .description('Set your seller type and INN; answers the name the tax registry has for it')
    .addOption(new Option('--type <type>', 'seller type').choices(SELLER_TYPES))
    .option('--inn <inn>', 'tax number: 12 digits (ip, self_employed) or 10 digits (company)')
    .addHelpText('after', '\nThe INN is checked (length, check digits) before anything is sent.\n\nExample:\n  $ seller papers status --type ip --inn 771234567859')
    .action(app.run((o: StatusOptions): StatusOptions => ({ type: o.type, inn: o.inn }), runPapersStatus));
  noun
    .command('confirm-registry')
    .description('Confirm that the registry name found for your INN is you')
    .action(app.run(() => ({}), runPapersConfirmRegistry));
  noun
    .command('payout')
    .description('Set where payouts go: a bank account, or (self-employed only) SBP by phone')
    .addOption(new Option('--method <method>', 'payout method').choices(PAYOUT_METHODS))
    .option('--bik <bik>', 'account: bank code, 9 digits beginning 04')
    .option('--account <digits>', 'account: the 20-digit account number')
    .option('--account-file <file>', 'account: read the account number from a file (- for stdin) instead of --account')
    .option('--kpp <kpp>', 'account, company only: KPP, 9 characters')
    .option('--phone <phone>', 'sbp: phone number, e.g. +7 999 123-45-67')
    .option('--name <name>', 'recipient exactly as the bank has it')
    .addHelpText(
      'after',
      `
Only the fields of the chosen method are taken: account → --bik --account --name (and --kpp for a
company); sbp → --phone --name. On a terminal the missing ones are asked; otherwise they are named.
Everything is checked (BIK, account control digit, KPP, phone) before anything is sent. Only the last
four digits of the account are ever shown.

Examples:
  $ seller papers payout --method account --bik 044525225 --account-file account.txt --name "IP Ivanov Ivan"
  $ seller papers payout --method sbp --phone "+7 999 123-45-67" --name "Ivanova Anna"`,
    )
    .action(app.run((o: PayoutOptions): PayoutOptions => ({ ...o }), runPapersPayout));
};

// ---------------------------------------------------------------------------------------------
// show

/** A seller type the CLI knows the payout rules of; null for one it does not (its rules are then the server's alone). */
function knownSellerType(value: string | null): SellerType | null {
  return (SELLER_TYPES as readonly string[]).includes(value ?? '') ? (value as SellerType) : null;
}

/** What fixes each missing paper. */
export function fixFor(missing: Missing, papers: Pick<PapersView, 'sellerType'>): string {
  switch (missing) {
    case 'nickname':
      return 'seller papers nickname NAME';
    case 'offer':
      return 'seller papers accept-offer';
    case 'status':
      return 'seller papers status --type ip|self_employed|company --inn INN';
    case 'registry':
      return 'seller papers confirm-registry';
    case 'payout':
      if (papers.sellerType === 'self_employed') {
        return 'seller papers payout --method sbp --phone PHONE --name NAME (or --method account --bik BIK --account ACCOUNT --name NAME)';
      }
      if (papers.sellerType === 'company') return 'seller papers payout --method account --bik BIK --account ACCOUNT --kpp KPP --name NAME';
      return 'seller papers payout --method account --bik BIK --account ACCOUNT --name NAME';
    default:
      return 'see `seller papers --help`';
  }
}

const MISSING_LABEL: Record<Missing, string> = {
  nickname: 'nickname',
  offer: 'seller offer not accepted',
  status: 'seller type and INN',
  registry: 'registry name not confirmed',
  payout: 'payout details',
};

function payoutLine(p: PapersView['payout']): string {
  if (p.method === null) return 'not set';
  const where = p.method === 'account' ? `bank account${p.accountTail ? ` ending ${p.accountTail}` : ''}` : 'SBP by phone';
  return `${where}${p.filled ? '' : ' (incomplete)'}`;
}

export async function runPapersShow(_opts: object, deps: Deps): Promise<void> {
  const papers = await deps.client().papers.get();
  if (wantsJson(deps)) {
    printJson(deps.io, papers);
    return;
  }
  printFields(deps.io, [
    ['Nickname', papers.nickname],
    ['Offer', papers.offerAccepted ? 'accepted' : 'not accepted'],
    ['Seller type', papers.sellerType],
    ['INN', papers.inn],
    ['Registry name', papers.registryName],
    ['Registry', papers.registryName === null ? '-' : papers.registryConfirmed ? 'confirmed' : 'not confirmed'],
    ['Payout', payoutLine(papers.payout)],
    ['Admission', papers.complete ? 'complete: your cards can be real' : 'incomplete: new cards are test cards'],
  ]);
  if (papers.missing.length === 0) return;
  say(deps.io, '\nMissing:');
  const width = Math.max(...papers.missing.map((m) => labelOf(MISSING_LABEL, m).length));
  for (const m of papers.missing) say(deps.io, `  ${labelOf(MISSING_LABEL, m).padEnd(width)}  →  ${fixFor(m, papers)}`);
}

// ---------------------------------------------------------------------------------------------
// nickname, offer

const NICKNAME_BODY = accountOperations['papers.setNickname'].body;

export async function runPapersNickname(opts: { name?: string | undefined }, deps: Deps): Promise<void> {
  const name = await flagOrAsk(deps, opts.name, 'NAME', (p) => p.text('Nickname (3-32 letters, digits, _ . -)'));
  const checked = NICKNAME_BODY.safeParse({ nickname: name });
  if (!checked.success) {
    throw new UsageError(`nickname "${name}" is not allowed: 3-32 characters, only letters, digits, _ . -`);
  }
  const answer = await withHints(deps.client().papers.setNickname(checked.data), {
    nickname_taken: 'another seller has this nickname; choose another one',
    contacts: 'a nickname must not be an e-mail address, phone number or messenger handle',
  });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, `Nickname set: ${answer.nickname}`);
}

export async function runPapersAcceptOffer(_opts: object, deps: Deps): Promise<void> {
  const answer = await deps.client().papers.acceptOffer();
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, `Seller offer accepted (${answer.acceptedAt}).`);
}

// ---------------------------------------------------------------------------------------------
// status, registry

function isSellerType(value: string): value is SellerType {
  return (SELLER_TYPES as readonly string[]).includes(value);
}

/** Asks again (up to three times) until `check` accepts the answer; the reason goes to stderr. */
async function askChecked(deps: Deps, question: string, check: (value: string) => CheckResult | string | null, tidy: (v: string) => string = (v) => v.trim()): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const value = tidy(await deps.prompter.text(question));
    const verdict = check(value);
    const reason = typeof verdict === 'string' ? verdict : verdict && !verdict.ok ? verdict.detail : null;
    if (reason === null) return value;
    if (attempt >= 3) throw new UsageError(reason);
    warn(deps.io, reason);
  }
}

export async function runPapersStatus(opts: StatusOptions, deps: Deps): Promise<void> {
  const interactive = isInteractive(deps.io);
  if (!interactive) {
    const missing = [opts.type === undefined ? '--type' : '', opts.inn === undefined ? '--inn' : ''].filter(Boolean);
    if (missing.length > 0) {
      throw new UsageError(`missing flags: ${missing.join(' ')}`, 'example: seller papers status --type ip --inn 771234567859');
    }
  }
  const type =
    opts.type ??
    ((await askChecked(deps, `Seller type (${SELLER_TYPES.join(', ')})`, (v) => (isSellerType(v) ? null : `choose one of ${SELLER_TYPES.join(', ')}`))) as SellerType);
  let inn: string;
  if (opts.inn !== undefined) {
    inn = opts.inn.trim();
    const check = validateInn(inn, type);
    if (!check.ok) throw new UsageError(`--inn: ${check.detail} (${check.kind})`, innHint(type));
  } else {
    inn = await askChecked(deps, `INN (${type === 'company' ? '10' : '12'} digits)`, (v) => validateInn(v, type));
  }
  const answer = await withHints(deps.client().papers.setStatus({ sellerType: type, inn }), { inn_bad: innHint(type) });
  if (wantsJson(deps)) {
    printJson(deps.io, answer);
    return;
  }
  say(deps.io, `Status set: ${answer.sellerType}, INN ${answer.inn}`);
  say(deps.io, `Registry name: ${answer.registryName}`);
  if (answer.needsConfirm) note(deps.io, 'If this is you, confirm with `seller papers confirm-registry`.');
  else note(deps.io, 'The registry name is confirmed.');
}

function innHint(type: SellerType): string {
  return type === 'company' ? "a company's INN has 10 digits" : `the INN of ${type === 'ip' ? 'a sole trader' : 'a self-employed person'} has 12 digits`;
}

export async function runPapersConfirmRegistry(_opts: object, deps: Deps): Promise<void> {
  const client = deps.client();
  const answer = await withHints(client.papers.confirmRegistry(), {
    no_status: 'set your seller type and INN first: seller papers status --type ip|self_employed|company --inn INN',
  });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, answer.already ? 'The registry name was already confirmed.' : 'Registry name confirmed.');
}

// ---------------------------------------------------------------------------------------------
// payout

/** Which flag carries the field a payout check refused. */
const FLAG_OF_KIND: Record<string, string> = {
  bik_bad: '--bik',
  account_bad: '--account',
  kpp_bad: '--kpp',
  phone_format: '--phone',
  name_needed: '--name',
  sbp_only_self: '--method',
};

const PAYOUT_HINTS: Record<string, string> = {
  sbp_only_self: 'payouts by phone (SBP) are for self-employed sellers only; use --method account',
  phone_format: 'an SBP phone is 11 digits beginning with 7, e.g. 79991234567 or +7 999 123-45-67',
  bik_bad: 'the BIK is 9 digits beginning with 04; your bank lists it with its details',
  account_bad: 'check the account number and the BIK: the account must belong to that bank',
  name_needed: 'give the recipient exactly as the bank has it, with --name',
  kpp_bad: 'a company needs its 9-character KPP, with --kpp',
};

function refuse(check: CheckResult): never {
  if (check.ok) throw new Error('refuse() of a passing check');
  const flag = FLAG_OF_KIND[check.kind];
  throw new UsageError(`${flag ? `${flag}: ` : ''}${check.detail} (${check.kind})`, PAYOUT_HINTS[check.kind]);
}

const digitsOnly = (value: string) => value.replace(/[\s-]/g, '');

/** The fields of a method, in the order they are asked. */
function fieldsOf(method: PayoutMethod, sellerType: SellerType | null): ('bik' | 'account' | 'kpp' | 'phone' | 'name')[] {
  if (method === 'sbp') return ['phone', 'name'];
  return sellerType === 'company' ? ['bik', 'account', 'kpp', 'name'] : ['bik', 'account', 'name'];
}

export async function runPapersPayout(opts: PayoutOptions, deps: Deps): Promise<void> {
  if (opts.account !== undefined && opts.accountFile !== undefined) throw new UsageError('use either --account or --account-file, not both');
  const method = await flagOrAsk(deps, opts.method, '--method', async (p) => {
    const answer = (await p.text('Payout method (account, or sbp for the self-employed)')).trim();
    if (answer !== 'account' && answer !== 'sbp') throw new UsageError(`--method: "${answer}" is not account or sbp`);
    return answer as PayoutMethod;
  });

  // Fields of the other method are a mistake, not something to send.
  const foreign =
    method === 'account'
      ? [opts.phone !== undefined ? '--phone' : '']
      : [opts.bik !== undefined ? '--bik' : '', opts.account !== undefined ? '--account' : '', opts.accountFile !== undefined ? '--account-file' : '', opts.kpp !== undefined ? '--kpp' : ''];
  const extra = foreign.filter(Boolean);
  if (extra.length > 0) throw new UsageError(`${extra.join(' ')} ${extra.length > 1 ? 'do' : 'does'} not go with --method ${method}`);

  // What was given is checked before any call.
  const given: PayoutInput = { method };
  if (opts.name !== undefined) given.name = opts.name.trim();
  if (method === 'account') {
    if (opts.bik !== undefined) given.bik = digitsOnly(opts.bik);
    if (opts.account !== undefined) given.account = digitsOnly(opts.account);
    if (opts.accountFile !== undefined) given.account = digitsOnly(chompNewline(await readTextInput(deps, opts.accountFile, '--account-file')));
    if (opts.kpp !== undefined) given.kpp = opts.kpp.trim().toUpperCase();
    if (given.bik !== undefined) {
      const bik = validateBik(given.bik);
      if (!bik.ok) refuse(bik);
    }
    if (given.account !== undefined && given.bik !== undefined) {
      const account = validateAccount(given.account, given.bik);
      if (!account.ok) refuse(account);
    } else if (given.account !== undefined && !/^\d{20}$/.test(given.account)) {
      refuse({ ok: false, kind: 'account_bad', detail: 'The account number must be 20 digits.' });
    }
    if (given.kpp !== undefined) {
      const kpp = validateKpp(given.kpp);
      if (!kpp.ok) refuse(kpp);
    }
  } else if (opts.phone !== undefined) {
    given.phone = normalizePhone(opts.phone);
    const phone = validatePhone(given.phone);
    if (!phone.ok) refuse(phone);
  }
  if (given.name === '') refuse({ ok: false, kind: 'name_needed', detail: 'The recipient name is empty.' });

  // The seller type decides what else is needed (KPP for a company; SBP only when self-employed).
  const client = deps.client();
  const sellerType = knownSellerType((await client.papers.get()).sellerType);
  if (method === 'sbp' && sellerType !== 'self_employed') {
    refuse({ ok: false, kind: 'sbp_only_self', detail: `Payouts by phone (SBP) are only for self-employed sellers; your seller type is ${sellerType ?? 'not set'}.` });
  }
  if (given.kpp !== undefined && sellerType !== 'company') {
    throw new UsageError('--kpp is only for a company', sellerType === null ? 'set your seller type first: seller papers status' : undefined);
  }

  const fields = fieldsOf(method, sellerType);
  const missing = fields.filter((f) => given[f] === undefined);
  if (missing.length > 0 && !isInteractive(deps.io)) {
    const flags = missing.map((f) => (f === 'account' ? '--account (or --account-file)' : `--${f}`));
    throw new UsageError(`missing flags: ${flags.join(' ')}`, `--method ${method} needs ${fields.map((f) => `--${f}`).join(' ')}`);
  }
  for (const field of missing) given[field] = await askField(deps, field, given);

  const check = validatePayout(given, sellerType);
  if (!check.ok) refuse(check);
  if (sellerType === null) note(deps.io, 'Your seller type is not set yet: set it with `seller papers status` (a company also needs a KPP).');

  const body: PayoutInput = { method, name: given.name };
  for (const field of fields) if (field !== 'name') body[field] = given[field];
  const answer = await withHints(client.papers.setPayout(body), PAYOUT_HINTS);
  if (wantsJson(deps)) {
    printJson(deps.io, answer);
    return;
  }
  say(deps.io, `Payout details saved: ${payoutLine(answer)}.`);
  if (!answer.filled) note(deps.io, 'The details do not suffice for a payout yet; see `seller papers show`.');
}

async function askField(deps: Deps, field: 'bik' | 'account' | 'kpp' | 'phone' | 'name', given: PayoutInput): Promise<string> {
  switch (field) {
    case 'bik':
      return askChecked(deps, 'BIK of the bank (9 digits)', validateBik, digitsOnly);
    case 'account':
      return askChecked(deps, 'Account number (20 digits)', (v) => validateAccount(v, given.bik), digitsOnly);
    case 'kpp':
      return askChecked(deps, 'KPP (9 characters)', validateKpp, (v) => v.trim().toUpperCase());
    case 'phone':
      return askChecked(deps, 'Phone for SBP (e.g. +7 999 123-45-67)', validatePhone, normalizePhone);
    case 'name':
      return askChecked(deps, 'Recipient, exactly as the bank has it', (v) => (v ? null : 'The recipient name is required.'));
  }
}
