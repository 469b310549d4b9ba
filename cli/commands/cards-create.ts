/**
 * `seller cards create`: a card from flags, or, on a terminal, a walk through the chosen position's
 * own choices for whatever the flags left out (service by text search, tariff, product type,
 * delivery method, credits, SLA, guarantee, price with the usual price as a hint, description).
 * Without a terminal, every missing flag is named at once (exit 2). The body is built and checked
 * by the SDK's `buildCard`, so a choice that does not fit the position fails before the call.
 */
import { days, money, named, word } from '../i18n/format.ts';
import { t } from '../i18n/index.ts';
import { cardChoiceWords } from '../i18n/error-words.ts';
import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  allowedDeliveryMethods,
  allowedProductTypes,
  buildCard,
  CardChoiceError,
  missingChoices,
  type CardChoices,
  type CardField,
} from '../../sdk/card-builder.ts';
import { CREDITS_TYPES, DELIVERY_METHODS, PRODUCT_TYPES, STOCKABLE_METHODS } from '../../sdk/contract/constants.ts';
import type { CreditsType, DeliveryMethod, Position, ProductType, SellerType } from '../lib/records.ts';
import type { SellerClient } from '../../sdk/client.ts';
import { contactsIn } from '../../sdk/contact-words.ts';
import { contactsText } from '../i18n/contacts.ts';
import { openOption, positiveInt } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { allItems } from '../lib/paging.ts';
import { CancelledError, CliError, UsageError } from '../lib/errors.ts';
import { readTextInput } from '../lib/input.ts';
import { isInteractive, type IO } from '../lib/io.ts';
import { note, printJson, say } from '../lib/output.ts';
import { cancellable, type Choice } from '../lib/prompts.ts';
import { confirmTheme, inputTheme, notEmpty, selectTheme } from '../lib/prompt-theme.ts';
import { checkOf, daysArg, minutesArg, positiveNumberArg, readPositiveNumber, readRoubles, roublesArg } from '../lib/typed-values.ts';
import { minutes, nearestSlugs, positionOf } from './catalog.ts';

// ---------------------------------------------------------------------------------------------
// Flags

/** The flag of each card field (create and update). */
export const FLAG_OF: Record<CardField | 'service', string> = {
  service: '--service',
  tariff: '--tariff',
  productType: '--type',
  deliveryMethod: '--delivery',
  slaMinutes: '--sla',
  guaranteeDays: '--guarantee',
  priceRub: '--price',
  description: '--description',
  creditsType: '--credits-type',
  creditsAmount: '--credits-amount',
  creditsRate: '--credits-rate',
  stock: '--stock',
};

/** The flags shared by create and update: the editable fields of a card. */
export function addEditableFlags(command: Command): Command {
  return command
    .addOption(openOption('--delivery <method>', t('cardsCreate.deliveryMethod'), DELIVERY_METHODS))
    .option('--sla <minutes>', t('cardsCreate.deliveryTimeInMinutes'), minutesArg)
    .option('--guarantee <days>', t('cardsCreate.guaranteeInDaysOne'), daysArg)
    .option('--price <rub>', t('cardsCreate.priceInWholeRoubles'), roublesArg)
    .option('--description <text>', t('cardsCreate.cardDescription'))
    .option('--description-file <path>', t('cardsCreate.readTheDescriptionFrom'))
    .addOption(openOption('--credits-type <type>', t('cardsCreate.creditsTypeCreditsCards'), CREDITS_TYPES))
    .option('--credits-amount <n>', t('cardsCreate.unitsPerPurchaseFor'), positiveInt)
    .option('--credits-rate <n>', t('cardsCreate.unitsPerRoubleFor'), positiveNumberArg);
}

/** A whole number ≥ 0, as a commander argParser. */
export function nonNegativeIntArg(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(t('cardsCreate.mustBeAWhole'));
  return Number(value);
}


/** The editable-field flags as commander hands them over. */
export interface EditableFlags {
  delivery?: DeliveryMethod | undefined;
  sla?: number | undefined;
  guarantee?: number | undefined;
  price?: number | undefined;
  description?: string | undefined;
  descriptionFile?: string | undefined;
  creditsType?: CreditsType | undefined;
  creditsAmount?: number | undefined;
  creditsRate?: number | undefined;
}

export interface CardsCreateOptions extends EditableFlags {
  service?: string | undefined;
  tariff?: string | undefined;
  type?: ProductType | undefined;
  confirmRequired?: boolean | undefined;
  stock?: number | undefined;
}

/** The `create` verb with its flags (the action is attached by cards.ts). */
export function createCommand(noun: Command): Command {
  const create = noun
    .command('create')
    .description(t('cardsCreate.createACardSwitched'))
    .option('--service <slug>', t('cardsCreate.cataloguePositionSlugSeller'))
    .option('--tariff <slug>', t('cardsCreate.tariffOfThePosition'))
    .addOption(openOption('--type <productType>', t('cardsCreate.productType'), PRODUCT_TYPES));
  return addEditableFlags(create)
    .option('--confirm-required', t('cardsCreate.confirmEachPaidOrder'))
    .option('--stock <n>', t('cardsCreate.declaredQuantityForManual'), nonNegativeIntArg)
    .addHelpText(
      'after',
      t('cardsCreate.flagsWhosePositionAllows'),
    );
}

/**
 * What the marketplace's contact filter (sdk/contacts.ts, the one the server applies) finds in a
 * description, as a sentence worded like the server's refusal (sdk/contact-words.ts), with the first
 * contact shown to its writer; undefined when the text is clean.
 */
export function contactsProblem(text: string): string | undefined {
  const found = contactsIn(text);
  return found ? contactsText(t('cardsCreate.descriptionSubject'), found, { quote: true }) : undefined;
}

/** `--description` or `--description-file` (trailing blank lines dropped); both is a usage error. */
export async function descriptionOf(opts: EditableFlags, deps: Pick<Deps, 'io'>): Promise<string | undefined> {
  if (opts.description !== undefined && opts.descriptionFile !== undefined) {
    throw new UsageError(t('cardsCreate.giveDescriptionOrDescription'));
  }
  if (opts.descriptionFile === undefined) return opts.description;
  return (await readTextInput(deps, opts.descriptionFile, '--description-file')).replace(/\s+$/, '');
}

/** The credits part of the choices, if any credits flag was given. */
export function creditsOf(opts: EditableFlags): CardChoices['credits'] {
  if (opts.creditsType === undefined && opts.creditsAmount === undefined && opts.creditsRate === undefined) return undefined;
  return { type: opts.creditsType, amount: opts.creditsAmount, rate: opts.creditsRate };
}

/** A `CardChoiceError` as the person reads it: the flag, what is wrong (its reason, in words), the allowed values. */
export function choiceUsageError(error: CardChoiceError): UsageError {
  const flag = FLAG_OF[error.field];
  const allowed = error.allowed && error.allowed.length > 0 ? t('cardsCreate.allowedValuesOf', { flag, allowed: error.allowed.join(', ') }) : undefined;
  return new UsageError(`${flag}: ${cardChoiceWords(error)}`, allowed);
}

// ---------------------------------------------------------------------------------------------
// Questions of the walk

/** The questions the walk asks; the real one uses @inquirer/prompts, tests pass a script. */
export interface WalkPrompter {
  /** One value out of a list. */
  select(message: string, choices: readonly Choice[]): Promise<string>;
  /** One value out of a list that follows the typed text. */
  search(message: string, source: (term: string) => Promise<Choice[]>): Promise<string>;
  /** A line of text; `required: false` allows an empty answer. */
  input(message: string, options?: { required?: boolean; validate?: (value: string) => true | string }): Promise<string>;
  confirm(message: string, defaultAnswer?: boolean): Promise<boolean>;
}

/** The walk's questions on the process's terminal (loaded only when asked). */
export function inquirerWalk(io: IO): WalkPrompter {
  const context = { input: io.stdin, output: io.stdout as NodeJS.WritableStream };
  const load = () => import('@inquirer/prompts');
  const named = (choices: readonly Choice[]) => choices.map((c) => ({ value: c.value, name: c.name ?? c.value }));
  return {
    select: (message, choices) => cancellable(load().then((p) => p.select<string>({ message, choices: named(choices), theme: selectTheme() }, context))),
    search: (message, source) =>
      cancellable(load().then((p) => p.search<string>({ message, source: async (term) => named(await source(term ?? '')), theme: selectTheme() }, context))),
    input: (message, options = {}) => {
      // Our own check of an empty answer: inquirer's `required` says it in English.
      const validate = (value: string): true | string => {
        if ((options.required ?? true) && notEmpty(value) !== true) return notEmpty(value);
        return options.validate ? options.validate(value) : true;
      };
      return cancellable(load().then((p) => p.input({ message, validate, theme: inputTheme() }, context)));
    },
    confirm: (message, defaultAnswer = true) => cancellable(load().then((p) => p.confirm({ message, default: defaultAnswer, theme: confirmTheme() }, context))),
  };
}

// ---------------------------------------------------------------------------------------------
// The command

export async function runCardsCreate(opts: CardsCreateOptions, deps: Deps, walk?: WalkPrompter): Promise<void> {
  const description = await descriptionOf(opts, deps);
  const problem = description === undefined ? undefined : contactsProblem(description);
  if (problem !== undefined) throw new UsageError(t('cardsCreate.nothingWasSent', { description: FLAG_OF.description, problem }));
  const choices: Partial<CardChoices> = {
    tariff: opts.tariff,
    productType: opts.type,
    deliveryMethod: opts.delivery,
    slaMinutes: opts.sla,
    guaranteeDays: opts.guarantee,
    priceRub: opts.price,
    description,
    credits: creditsOf(opts),
    confirmRequired: opts.confirmRequired === true ? true : undefined,
    stock: opts.stock,
  };
  const interactive = isInteractive(deps.io);
  const client = deps.client();

  let service = opts.service;
  if (service === undefined && !interactive) {
    const missing = ['--service', ...(['tariff', 'productType', 'deliveryMethod', 'slaMinutes', 'guaranteeDays', 'priceRub'] as const).filter((f) => choices[f] === undefined).map((f) => FLAG_OF[f])];
    throw new UsageError(
      t('cardsCreate.missingFlagsNotRunning', { missing: missing.join(' ') }),
      t('cardsCreate.flagsWhosePositionAllows2'),
    );
  }
  const ask = walk ?? inquirerWalk(deps.io);
  service ??= await askService(ask, client);
  const position = await positionOf(client, service, '--service position');

  const firstMissing = missingChoices(position, choices);
  if (firstMissing.length > 0 && !interactive) {
    throw new UsageError(
      t('cardsCreate.missingFlagsNotRunning2', { firstMissing: firstMissing.map((f) => FLAG_OF[f]).join(' ') }),
      hintOfMissing(position, firstMissing, choices),
    );
  }

  const walked = firstMissing.length > 0;
  // Known only for the walk, to offer what the seller may sell; flags are judged by the server.
  let sellerType: SellerType | null | undefined;
  if (walked) {
    sellerType = await sellerTypeOf(client);
    say(deps.io, `${position.title} (${position.slug})`);
    for (let missing = missingChoices(position, choices, { sellerType }); missing.length > 0; missing = missingChoices(position, choices, { sellerType })) {
      await askField(ask, client, position, choices, missing[0]!, sellerType);
    }
    if (choices.description === undefined) {
      // Checked as it is typed, with the server's own contact filter: a refusal after the final "Yes"
      // would throw every answer away.
      for (;;) {
        const text = (await ask.input(t('cardsCreate.descriptionOptionalEnterTo'), { required: false, validate: (value) => contactsProblem(value) ?? true })).trim();
        const problem = contactsProblem(text);
        if (problem === undefined) {
          if (text) choices.description = text;
          break;
        }
        note(deps.io, t('cardsCreate.typeItAgain', { problem }));
      }
    }
  }

  let body;
  try {
    body = buildCard(position, choices as CardChoices, { sellerType });
  } catch (error) {
    if (error instanceof CardChoiceError) throw choiceUsageError(error);
    throw error;
  }

  if (walked) {
    note(deps.io, summaryOf(body));
    if (!(await ask.confirm(t('cardsCreate.createThisCard'), true))) throw new CancelledError();
  }

  const created = await client.listings.create(body);
  if (wantsJson(deps)) {
    printJson(deps.io, created);
    return;
  }
  say(deps.io, t(created.isTest ? 'cardsCreate.createdTest' : 'cardsCreate.created', { number: created.number }));
  note(deps.io, t('cardsCreate.switchItOnSeller', { number: created.number }));
  if ((STOCKABLE_METHODS as readonly string[]).includes(body.deliveryMethod)) {
    note(deps.io, t('cardsCreate.autoDeliverySellerStock', { number: created.number }));
  }
}

/** The allowed values of each missing flag, one per line (they are known once the position is). */
function hintOfMissing(position: Position, missing: CardField[], choices: Partial<CardChoices>): string {
  const lines = missing.map((field) => {
    const values = allowedOf(position, field, choices, undefined);
    return values ? `${FLAG_OF[field]}: ${values.map((c) => c.value).join(', ')}` : `${FLAG_OF[field]}: ${field === 'priceRub' ? t('cardsCreate.wholeRoubles') : t('cardsCreate.aPositiveNumber')}`;
  });
  return lines.join('\n');
}

/** The allowed values of a field, as choices; undefined for free values (price, amount, rate). */
function allowedOf(position: Position, field: CardField, choices: Partial<CardChoices>, sellerType: SellerType | null | undefined): Choice[] | undefined {
  switch (field) {
    case 'tariff':
      return position.tariffs.map((tariff) => ({ value: tariff.slug, name: `${tariff.title} (${tariff.slug})` }));
    case 'productType':
      return allowedProductTypes(position, { sellerType }).map((value) => ({ value, name: named('productType', value) }));
    case 'deliveryMethod': {
      const types = choices.productType ? [choices.productType] : allowedProductTypes(position, { sellerType });
      const methods = [...new Set(types.flatMap((type) => allowedDeliveryMethods(position, type, { sellerType })))];
      return methods.map((value) => ({ value, name: named('deliveryMethod', value) }));
    }
    case 'creditsType':
      return (position.creditsTypes ?? []).map((value) => ({ value, name: value === 'pack' ? t('cardsCreate.packAFixedAmount') : value === 'rate' ? t('cardsCreate.rateUnitsPerRouble') : value }));
    case 'slaMinutes':
      // Named in minutes, the unit of `--sla` (hours and days beside it for reading).
      return position.slaChoices.map((m) => ({ value: String(m), name: m < 60 ? t('units.minutes', { n: m }) : `${t('units.minutes', { n: m })} (${minutes(m)})` }));
    case 'guaranteeDays':
      return position.guaranteeChoices.map((d) => ({ value: String(d), name: days(d) }));
    default:
      return undefined;
  }
}

async function askService(ask: WalkPrompter, client: SellerClient): Promise<string> {
  const named = (p: Position) => ({ value: p.slug, name: `${p.title} (${p.slug}, ${word('category', p.category)})` });
  let catalogue: Promise<Position[]> | undefined;
  return ask.search(t('cardsCreate.serviceTypeToSearch'), async (term) => {
    try {
      const page = await client.catalog.list({ q: term.trim() || undefined, limit: 20 });
      if (page.items.length > 0 || !term.trim()) return page.items.map(named);
      // Nothing found for a typo (`spotfy`): offer the nearest slugs, as `catalog show` does.
      catalogue ??= allItems(client.catalog.list({ limit: 100 }));
      const positions = await catalogue;
      const near = nearestSlugs(term.trim(), positions.map((p) => p.slug));
      return near.map((slug) => positions.find((p) => p.slug === slug)!).map((p) => ({ ...named(p), name: t('cardsCreate.didYouMean', { name: named(p).name }) }));
    } catch {
      return [];
    }
  });
}

/** The seller's type, to offer a self-employed seller only what it may sell; unknown is fine. */
async function sellerTypeOf(client: SellerClient): Promise<SellerType | null> {
  try {
    return (await client.me.get()).sellerType;
  } catch {
    return null;
  }
}

const positiveIntText = (value: string): true | string => (/^\d+$/.test(value.trim()) && Number(value) >= 1 ? true : t('typed.wholeAtLeastOne'));

async function askField(
  ask: WalkPrompter,
  client: SellerClient,
  position: Position,
  choices: Partial<CardChoices>,
  field: CardField,
  sellerType: SellerType | null,
): Promise<void> {
  const select = async (message: string) => {
    const options = allowedOf(position, field, choices, sellerType) ?? [];
    if (options.length === 0) throw new CliError(t('cardsCreate.offersYouNo', { slug: position.slug, message: message.toLowerCase() }), 1);
    return options.length === 1 ? options[0]!.value : ask.select(message, options);
  };
  switch (field) {
    case 'tariff':
      choices.tariff = await select(t('cardsCreate.tariff'));
      return;
    case 'productType':
      choices.productType = (await select(t('cardsCreate.productType2'))) as ProductType;
      return;
    case 'deliveryMethod':
      choices.deliveryMethod = (await select(t('cardsCreate.deliveryMethod2'))) as DeliveryMethod;
      return;
    case 'creditsType':
      choices.credits = { ...choices.credits, type: (await select(t('cardsCreate.creditsType'))) as CreditsType };
      return;
    case 'creditsAmount':
      choices.credits = { ...choices.credits, amount: Number(await ask.input(t('cardsCreate.creditsPerPurchase'), { validate: positiveIntText })) };
      return;
    case 'creditsRate':
      choices.credits = { ...choices.credits, rate: positiveNumberArg(await ask.input(t('cardsCreate.creditsPerRouble'), { validate: checkOf(readPositiveNumber) })) };
      return;
    case 'slaMinutes':
      choices.slaMinutes = Number(await select(t('cardsCreate.deliveryTimeSla')));
      return;
    case 'guaranteeDays':
      choices.guaranteeDays = Number(await select(t('cardsCreate.guarantee')));
      return;
    case 'priceRub': {
      const types = allowedProductTypes(position, { sellerType });
      const hint = await usualPriceHint(client, position.slug, choices.productType ?? (types.length === 1 ? types[0] : undefined));
      choices.priceRub = roublesArg(await ask.input(t('cardsCreate.priceRub', { hint }), { validate: checkOf(readRoubles) }));
      return;
    }
    default:
      throw new CliError(t('cardsCreate.cannotAskFor', { field }));
  }
}

/** ` (usual price 990 RUB)`, ` (usual price unknown)`, or nothing when it cannot be read. */
async function usualPriceHint(client: SellerClient, service: string, productType: ProductType | undefined): Promise<string> {
  if (!productType) return '';
  try {
    const { usualPriceRub } = await client.catalog.usualPrice({ service, productType });
    return usualPriceRub === null ? t('cardsCreate.usualPriceUnknown') : t('cardsCreate.usualPriceRub', { price: money(usualPriceRub) });
  } catch {
    return '';
  }
}

function summaryOf(body: ReturnType<typeof buildCard>): string {
  const credits =
    body.creditsType === 'pack' ? t('cardsCreate.creditsPackOf', { creditsAmount: body.creditsAmount }) : body.creditsType === 'rate' ? t('cardsCreate.creditsPerRouble2', { creditsRate: body.creditsRate }) : '';
  return (
    t('cardsCreate.by', { service: body.service, tariff: body.tariff, productType: word('productType', body.productType), deliveryMethod: word('deliveryMethod', body.deliveryMethod), credits }) +
    t('cardsCreate.priceRubDeliveryWithin', { price: money(body.priceRub), minutes: minutes(body.slaMinutes), guarantee: days(body.guaranteeDays) }) +
    (body.description ? `\n${body.description}` : '')
  );
}
