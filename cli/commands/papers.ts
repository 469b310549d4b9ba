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
import { t, tOr } from '../i18n/index.ts';
import { checkWords } from '../i18n/error-words.ts';
import { dateTime, word } from '../i18n/format.ts';
import { Option } from 'commander';
import type { z } from 'zod';
import type { Papers } from '../lib/records.ts';
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
  type CheckFailure,
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
    .description(t('papers.showThePapersWhat'))
    .action(app.run(() => ({}), runPapersShow));
  noun
    .command('nickname')
    .description(t('papers.setYourPublicNickname'))
    .argument('[name]', t('papers.theNickname'))
    .action(app.run((name: string | undefined) => ({ name }), runPapersNickname));
  noun
    .command('accept-offer')
    .description(t('papers.acceptTheSellerOffer'))
    .action(app.run(() => ({}), runPapersAcceptOffer));
  noun
    .command('status')
    .description(t('papers.setYourSellerType'))
    .addOption(new Option('--type <type>', t('papers.sellerType')).choices(SELLER_TYPES))
    .option('--inn <inn>', t('papers.taxNumberDigitsIp'))
    .addHelpText('after', t('papers.theInnIsChecked'))
    .action(app.run((o: StatusOptions): StatusOptions => ({ type: o.type, inn: o.inn }), runPapersStatus));
  noun
    .command('confirm-registry')
    .description(t('papers.confirmThatTheRegistry'))
    .action(app.run(() => ({}), runPapersConfirmRegistry));
  noun
    .command('payout')
    .description(t('papers.setWherePayoutsGo'))
    .addOption(new Option('--method <method>', t('papers.payoutMethod')).choices(PAYOUT_METHODS))
    .option('--bik <bik>', t('papers.accountBankCodeDigits'))
    .option('--account <digits>', t('papers.accountTheDigitAccount'))
    .option('--account-file <file>', t('papers.accountReadTheAccount'))
    .option('--kpp <kpp>', t('papers.accountCompanyOnlyKpp'))
    .option('--phone <phone>', t('papers.sbpPhoneNumberE'))
    .option('--name <name>', t('papers.recipientExactlyAsThe'))
    .addHelpText(
      'after',
      t('papers.onlyTheFieldsOf'),
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
      return t('papers.sellerPapersNicknameName');
    case 'offer':
      return t('papers.sellerPapersAcceptOffer');
    case 'status':
      return t('papers.sellerPapersStatusType');
    case 'registry':
      return t('papers.sellerPapersConfirmRegistry');
    case 'payout':
      if (papers.sellerType === 'self_employed') {
        return t('papers.sellerPapersPayoutMethod');
      }
      if (papers.sellerType === 'company') return t('papers.sellerPapersPayoutMethod2');
      return t('papers.sellerPapersPayoutMethod3');
    default:
      return t('papers.seeSellerPapersHelp');
  }
}

/** A missing paper in words (`papers.missingLabels.*`); one this version does not know as it came. */
const missingLabel = (missing: Missing): string => tOr(`papers.missingLabels.${missing}`, missing);

/** A failed check of the SDK's validators in the run's language, from its kind, reason and values (cli/i18n/error-words.ts). */
const explain = (check: CheckFailure): string => checkWords(check);

function payoutLine(p: PapersView['payout']): string {
  if (p.method === null) return t('papers.notSet');
  const where = p.method === 'account' ? (p.accountTail ? t('papers.bankAccountEnding', { tail: p.accountTail }) : t('papers.bankAccount')) : t('papers.sbpByPhone');
  return p.filled ? where : t('papers.incompleteDetails', { where });
}

export async function runPapersShow(_opts: object, deps: Deps): Promise<void> {
  const papers = await deps.client().papers.get();
  if (wantsJson(deps)) {
    printJson(deps.io, papers);
    return;
  }
  printFields(deps.io, [
    [t('papers.nickname'), papers.nickname],
    [t('papers.offer'), papers.offerAccepted ? t('papers.accepted') : t('papers.notAccepted')],
    [t('papers.sellerType2'), papers.sellerType === null ? null : word('sellerType', papers.sellerType)],
    [t('papers.inn'), papers.inn],
    [t('papers.registryName'), papers.registryName],
    [t('papers.registry'), papers.registryName === null ? '-' : papers.registryConfirmed ? t('papers.confirmed') : t('papers.notConfirmed')],
    [t('papers.payout'), payoutLine(papers.payout)],
    [t('papers.admission'), papers.complete ? t('papers.completeYourCardsCan') : t('papers.incompleteNewCardsAre')],
  ]);
  if (papers.missing.length === 0) return;
  say(deps.io, t('papers.missing'));
  const width = Math.max(...papers.missing.map((m) => missingLabel(m).length));
  // i18next-instrument-ignore-next-line: the layout of a line; its parts are translated
  for (const m of papers.missing) say(deps.io, `  ${missingLabel(m).padEnd(width)}  →  ${fixFor(m, papers)}`);
}

// ---------------------------------------------------------------------------------------------
// nickname, offer

const NICKNAME_BODY = accountOperations['papers.setNickname'].body;

export async function runPapersNickname(opts: { name?: string | undefined }, deps: Deps): Promise<void> {
  const name = await flagOrAsk(deps, opts.name, 'NAME', (p) => p.text(t('papers.nicknameLettersDigits')));
  const checked = NICKNAME_BODY.safeParse({ nickname: name });
  if (!checked.success) {
    throw new UsageError(t('papers.nicknameIsNotAllowed', { name }));
  }
  const answer = await withHints(deps.client().papers.setNickname(checked.data), {
    nickname_taken: t('papers.anotherSellerHasThis'),
    contacts: t('papers.aNicknameMustNot'),
  });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t('papers.nicknameSet', { nickname: answer.nickname }));
}

export async function runPapersAcceptOffer(_opts: object, deps: Deps): Promise<void> {
  const answer = await deps.client().papers.acceptOffer();
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t('papers.sellerOfferAccepted', { acceptedAt: dateTime(answer.acceptedAt) }));
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
    const reason = typeof verdict === 'string' ? verdict : verdict && !verdict.ok ? explain(verdict) : null;
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
      throw new UsageError(t('papers.missingFlags', { missing: missing.join(' ') }), t('papers.exampleSellerPapersStatus'));
    }
  }
  const type =
    opts.type ??
    ((await askChecked(deps, t('papers.sellerTypeAsk', { types: SELLER_TYPES.join(', ') }), (v) => (isSellerType(v) ? null : t('papers.chooseOneOf', { types: SELLER_TYPES.join(', ') })))) as SellerType);
  let inn: string;
  if (opts.inn !== undefined) {
    inn = opts.inn.trim();
    const check = validateInn(inn, type);
    if (!check.ok) throw new UsageError(t('papers.refusedFlag', { flag: '--inn', detail: explain(check), kind: check.kind }), innHint(type));
  } else {
    inn = await askChecked(deps, t('papers.innDigits', { digits: type === 'company' ? '10' : '12' }), (v) => validateInn(v, type));
  }
  const answer = await withHints(deps.client().papers.setStatus({ sellerType: type, inn }), { inn_bad: innHint(type) });
  if (wantsJson(deps)) {
    printJson(deps.io, answer);
    return;
  }
  say(deps.io, t('papers.statusSetInn', { sellerType: word('sellerType', answer.sellerType), inn: answer.inn }));
  say(deps.io, t('papers.registryName2', { registryName: answer.registryName }));
  if (answer.needsConfirm) note(deps.io, t('papers.ifThisIsYou'));
  else note(deps.io, t('papers.theRegistryNameIs'));
}

function innHint(type: SellerType): string {
  return type === 'company' ? t('papers.aCompanySInn') : type === 'ip' ? t('papers.innOfIp') : t('papers.innOfSelfEmployed');
}

export async function runPapersConfirmRegistry(_opts: object, deps: Deps): Promise<void> {
  const client = deps.client();
  const answer = await withHints(client.papers.confirmRegistry(), {
    no_status: t('papers.setYourSellerType2'),
  });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, answer.already ? t('papers.theRegistryNameWas') : t('papers.registryNameConfirmed'));
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

const payoutHints = (): Record<string, string> => ({
  sbp_only_self: t('papers.payoutsByPhoneSbp'),
  phone_format: t('papers.anSbpPhoneIs'),
  bik_bad: t('papers.theBikIsDigits'),
  account_bad: t('papers.checkTheAccountNumber'),
  name_needed: t('papers.giveTheRecipientExactly'),
  kpp_bad: t('papers.aCompanyNeedsIts'),
});

/** A failed check of the SDK's validators as a usage error naming its flag. */
function refuse(check: CheckResult): never {
  if (check.ok) throw new Error('refuse() of a passing check');
  refuseWith(check.kind, explain(check));
}

/** A refusal of `kind` said in `detail` (already in the run's language) as a usage error naming its flag. */
function refuseWith(kind: string, detail: string): never {
  const flag = FLAG_OF_KIND[kind];
  const message = flag ? t('papers.refusedFlag', { flag, detail, kind }) : t('papers.refused', { detail, kind });
  throw new UsageError(message, payoutHints()[kind]);
}

const digitsOnly = (value: string) => value.replace(/[\s-]/g, '');

/** The fields of a method, in the order they are asked. */
function fieldsOf(method: PayoutMethod, sellerType: SellerType | null): ('bik' | 'account' | 'kpp' | 'phone' | 'name')[] {
  if (method === 'sbp') return ['phone', 'name'];
  return sellerType === 'company' ? ['bik', 'account', 'kpp', 'name'] : ['bik', 'account', 'name'];
}

export async function runPapersPayout(opts: PayoutOptions, deps: Deps): Promise<void> {
  if (opts.account !== undefined && opts.accountFile !== undefined) throw new UsageError(t('papers.useEitherAccountOr'));
  const method = await flagOrAsk(deps, opts.method, '--method', async (p) => {
    const answer = (await p.text(t('papers.payoutMethodAccountOr'))).trim();
    if (answer !== 'account' && answer !== 'sbp') throw new UsageError(t('papers.methodIsNotAccount', { answer }));
    return answer as PayoutMethod;
  });

  // Fields of the other method are a mistake, not something to send.
  const foreign =
    method === 'account'
      ? [opts.phone !== undefined ? '--phone' : '']
      : [opts.bik !== undefined ? '--bik' : '', opts.account !== undefined ? '--account' : '', opts.accountFile !== undefined ? '--account-file' : '', opts.kpp !== undefined ? '--kpp' : ''];
  const extra = foreign.filter(Boolean);
  if (extra.length > 0) throw new UsageError(t('papers.notGoWithMethod', { extra: extra.join(' '), count: extra.length, method }));

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
      refuseWith('account_bad', t('papers.theAccountNumberMust'));
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
  if (given.name === '') refuseWith('name_needed', t('papers.theRecipientNameIs'));

  // The seller type decides what else is needed (KPP for a company; SBP only when self-employed).
  const client = deps.client();
  const sellerType = knownSellerType((await client.papers.get()).sellerType);
  if (method === 'sbp' && sellerType !== 'self_employed') {
    refuseWith('sbp_only_self', t('papers.payoutsByPhoneSbp2', { type: sellerType ?? t('papers.notSet') }));
  }
  if (given.kpp !== undefined && sellerType !== 'company') {
    throw new UsageError(t('papers.kppIsOnlyFor'), sellerType === null ? t('papers.setYourSellerType3') : undefined);
  }

  const fields = fieldsOf(method, sellerType);
  const missing = fields.filter((f) => given[f] === undefined);
  if (missing.length > 0 && !isInteractive(deps.io)) {
    const flags = missing.map((f) => (f === 'account' ? t('papers.accountOrFile') : `--${f}`));
    throw new UsageError(t('papers.missingFlags', { missing: flags.join(' ') }), t('papers.methodNeeds', { method, fields: fields.map((f) => `--${f}`).join(' ') }));
  }
  for (const field of missing) given[field] = await askField(deps, field, given);

  const check = validatePayout(given, sellerType);
  if (!check.ok) refuse(check);
  if (sellerType === null) note(deps.io, t('papers.yourSellerTypeIs'));

  const body: PayoutInput = { method, name: given.name };
  for (const field of fields) if (field !== 'name') body[field] = given[field];
  const answer = await withHints(client.papers.setPayout(body), payoutHints());
  if (wantsJson(deps)) {
    printJson(deps.io, answer);
    return;
  }
  say(deps.io, t('papers.payoutDetailsSaved', { payoutLine: payoutLine(answer) }));
  if (!answer.filled) note(deps.io, t('papers.theDetailsDoNot'));
}

async function askField(deps: Deps, field: 'bik' | 'account' | 'kpp' | 'phone' | 'name', given: PayoutInput): Promise<string> {
  switch (field) {
    case 'bik':
      return askChecked(deps, t('papers.bikOfTheBank'), validateBik, digitsOnly);
    case 'account':
      return askChecked(deps, t('papers.accountNumberDigits'), (v) => validateAccount(v, given.bik), digitsOnly);
    case 'kpp':
      return askChecked(deps, t('papers.kppCharacters'), validateKpp, (v) => v.trim().toUpperCase());
    case 'phone':
      return askChecked(deps, t('papers.phoneForSbpE'), validatePhone, normalizePhone);
    case 'name':
      return askChecked(deps, t('papers.recipientExactlyAsThe2'), (v) => (v ? null : t('papers.recipientRequired')));
  }
}
