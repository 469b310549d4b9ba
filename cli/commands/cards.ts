/**
 * `seller cards …`: the seller's cards (listings; scope `listings`).
 * list, show, create (cards-create.ts), update (sends the whole body), copy, on/off (auto-delivery
 * with `--auto`), test/real, delete, image set/rm. Destructive verbs confirm on a terminal and need
 * `--yes` otherwise.
 */
import { dateTime, days, money, rubles, word } from '../i18n/format.ts';
import { t } from '../i18n/index.ts';
import { extname } from 'node:path';
import { Option } from 'commander';
import { cardUpdateOf, type CardChanges } from '../../sdk/card-builder.ts';
import { IMAGE_MAX_BYTES, IMAGE_TYPES } from '../../sdk/contract/constants.ts';
import type { Card } from '../lib/records.ts';
import { RejectedError } from '../../sdk/errors.ts';
import { positiveInt, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, UsageError } from '../lib/errors.ts';
import { listOptions, pageFlags, printList, type ListOptions, type RawListOptions } from '../lib/list.ts';
import { note, printFields, printJson, say } from '../lib/output.ts';
import { readInputFile } from '../lib/input.ts';
import { confirmDestructive } from '../lib/prompts.ts';
import { minutes } from './catalog.ts';
import {
  addEditableFlags,
  createCommand,
  creditsOf,
  descriptionOf,
  runCardsCreate,
  type CardsCreateOptions,
  type EditableFlags,
} from './cards-create.ts';

export { runCardsCreate, type CardsCreateOptions } from './cards-create.ts';

export interface CardsListOptions extends ListOptions {
  active?: boolean | undefined;
  service?: string | undefined;
}

export interface CardNumberOptions {
  number: number;
}

export interface CardsUpdateOptions extends EditableFlags, CardNumberOptions {}

export interface CardsOnOptions extends CardNumberOptions {
  /** true: switch auto-delivery on; false: off; undefined: leave it as it is. */
  auto?: boolean | undefined;
}

export interface CardsConfirmOptions extends CardNumberOptions {
  yes: boolean;
}

export interface CardsImageSetOptions extends CardNumberOptions {
  file: string;
}

/** The `<number>` argument of every card verb, worded when the verb is registered (in that run's language). */
const numberArg = (): [string, string] => ['<number>', t('cards.cardNumber')];
const byNumber = (number: number): CardNumberOptions => ({ number });

export const register: Register = (noun, app) => {
  listOptions(
    noun
      .command('list')
      .alias('ls')
      .description(t('cards.listYourCards'))
      .addOption(new Option('--active', t('cards.onlyOn')))
      .addOption(new Option('--inactive', t('cards.onlyOff')).conflicts('active'))
      .option('--service <slug>', t('cards.onlyCardsOfThis')),
    t('things.cards'),
  ).action(
    app.run(
      (o: RawListOptions & { active?: boolean; inactive?: boolean; service?: string }): CardsListOptions => ({
        active: o.active ? true : o.inactive ? false : undefined,
        service: o.service,
        ...pageFlags(o),
      }),
      runCardsList,
    ),
  );

  noun
    .command('show')
    .description(t('cards.showACardWith'))
    .argument(...numberArg(), positiveInt)
    .action(app.run(byNumber, runCardsShow));

  createCommand(noun).action(app.run((o: CardsCreateOptions) => o, (opts, deps) => runCardsCreate(opts, deps)));

  addEditableFlags(
    noun
      .command('update')
      .description(t('cards.changeACardThe'))
      .argument(...numberArg(), positiveInt),
  )
    .addHelpText('after', t('cards.serviceTariffAndProduct'))
    .action(app.run((number: number, o: EditableFlags): CardsUpdateOptions => ({ ...o, number }), runCardsUpdate));

  noun
    .command('copy')
    .description(t('cards.copyACardInto'))
    .argument(...numberArg(), positiveInt)
    .action(app.run(byNumber, runCardsCopy));

  noun
    .command('on')
    .description(t('cards.switchACardOn'))
    .argument(...numberArg(), positiveInt)
    .option('--auto', t('cards.alsoSwitchAutoDelivery'))
    .option('--no-auto', t('cards.switchAutoDeliveryOff'))
    .addHelpText(
      'after',
      t('cards.autoDeliveryNeedsFree'),
    )
    .action(app.run((number: number, o: { auto?: boolean }): CardsOnOptions => ({ number, auto: o.auto }), runCardsOn));

  noun
    .command('off')
    .description(t('cards.switchACardOff'))
    .argument(...numberArg(), positiveInt)
    .action(app.run(byNumber, runCardsOff));

  noun
    .command('test')
    .description(t('cards.markACardAs'))
    .argument(...numberArg(), positiveInt)
    .action(app.run(byNumber, (opts, deps) => runCardsSetTest({ ...opts, isTest: true }, deps)));

  noun
    .command('real')
    .description(t('cards.markATestCard'))
    .argument(...numberArg(), positiveInt)
    .action(app.run(byNumber, (opts, deps) => runCardsSetTest({ ...opts, isTest: false }, deps)));

  noun
    .command('delete')
    .alias('rm')
    .description(t('cards.deleteACardA'))
    .argument(...numberArg(), positiveInt)
    .option('-y, --yes', t('cards.doNotAskFor'))
    .action(app.run((number: number, o: { yes?: boolean }): CardsConfirmOptions => ({ number, yes: o.yes === true }), runCardsDelete));

  const image = noun.command('image').description(t('cards.setOrRemoveThe'));
  image
    .command('set')
    .description(t('cards.uploadTheCardImage'))
    .argument(...numberArg(), positiveInt)
    .argument('<file>', t('cards.imageFile'))
    .action(app.run((number: number, file: string): CardsImageSetOptions => ({ number, file }), runCardsImageSet));
  image
    .command('rm')
    .alias('remove')
    .description(t('cards.removeTheCardImage'))
    .argument(...numberArg(), positiveInt)
    .option('-y, --yes', t('cards.doNotAskFor'))
    .action(app.run((number: number, o: { yes?: boolean }): CardsConfirmOptions => ({ number, yes: o.yes === true }), runCardsImageRm));
};

// ---------------------------------------------------------------------------------------------
// Reading

export async function runCardsList(opts: CardsListOptions, deps: Deps): Promise<void> {
  const call = deps.client().listings.list({ active: opts.active, service: opts.service, limit: opts.limit, cursor: opts.cursor });
  await printList(deps, call, {
    all: opts.all,
    what: t('things.cards'),
    empty: t('cards.noCards'),
    columns: [
      { header: t('cards.number'), value: (c) => c.number },
      { header: t('cards.service'), value: (c) => c.service },
      { header: t('cards.tariff'), value: (c) => c.tariff },
      { header: t('cards.type'), value: (c) => word('productType', c.productType) },
      { header: t('cards.delivery'), value: (c) => word('deliveryMethod', c.deliveryMethod) },
      { header: t('cards.price'), value: (c) => rubles(c.priceRub) },
      { header: t('cards.state'), value: stateOf },
      { header: t('cards.stock'), value: (c) => t('cards.free', { count: c.stock.free }) },
    ],
  });
}

/** `on`, `on, auto`, `off`, with `, test` for test cards. */
function stateOf(card: Card): string {
  return [card.isActive ? t('words.on') : t('words.off'), ...(card.autoIssue ? [t('cards.auto')] : []), ...(card.isTest ? [t('cards.test')] : [])].join(', ');
}

export async function runCardsShow(opts: CardNumberOptions, deps: Deps): Promise<void> {
  const card = await deps.client().listings.get(opts.number);
  if (wantsJson(deps)) {
    printJson(deps.io, card);
    return;
  }
  const credits =
    card.creditsType === 'pack' ? t('cards.packOf', { amount: card.creditsAmount }) : card.creditsType === 'rate' ? t('cards.perRouble', { rate: card.creditsRate }) : undefined;
  printFields(deps.io, [
    [t('cards.number2'), card.number],
    [t('cards.service2'), `${card.service} / ${card.tariff}`],
    [t('cards.product'), t('cards.productBy', { type: word('productType', card.productType), method: word('deliveryMethod', card.deliveryMethod) })],
    ...(credits ? [[t('cards.credits'), credits] as const] : []),
    [t('cards.price2'), money(card.priceRub)],
    [t('cards.deliveryTime'), minutes(card.slaMinutes)],
    [t('cards.guarantee'), days(card.guaranteeDays)],
    [t('cards.state2'), card.isActive ? t('words.on') : t('words.off')],
    [t('cards.autoDelivery'), card.autoIssue ? t('words.on') : t('words.off')],
    [t('cards.testCard'), card.isTest ? t('words.yes') : t('words.no')],
    [t('cards.confirmOrders'), card.confirmRequired ? t('words.yes') : t('words.no')],
    [t('cards.stock2'), t('cards.stockCounts', { free: card.stock.free, issued: card.stock.issued })],
    [t('cards.declaredStock'), card.declaredStock],
    [t('cards.image'), card.image?.url],
    [t('cards.description'), card.description],
    [t('cards.updated'), dateTime(card.updatedAt)],
  ]);
}

// ---------------------------------------------------------------------------------------------
// Changing

export async function runCardsUpdate(opts: CardsUpdateOptions, deps: Deps): Promise<void> {
  const description = await descriptionOf(opts, deps);
  const credits = creditsOf(opts);
  const changes: CardChanges = {
    deliveryMethod: opts.delivery,
    priceRub: opts.price,
    slaMinutes: opts.sla,
    guaranteeDays: opts.guarantee,
    description,
    creditsType: credits?.type,
    creditsAmount: credits?.amount,
    creditsRate: credits?.rate,
  };
  if (Object.values(changes).every((value) => value === undefined)) {
    throw new UsageError(
      t('cards.nothingToChange'),
      t('cards.giveAtLeastOne'),
    );
  }
  const client = deps.client();
  const card = await client.listings.get(opts.number);
  const answer = await client.listings.update(opts.number, cardUpdateOf(card, changes));
  if (wantsJson(deps)) {
    printJson(deps.io, answer);
    return;
  }
  say(deps.io, t('cards.updatedCard', { number: answer.number }));
  if (answer.isActive) note(deps.io, t('cards.theCardIsSwitched'));
}

export async function runCardsCopy(opts: CardNumberOptions, deps: Deps): Promise<void> {
  const copy = await deps.client().listings.copy(opts.number);
  if (wantsJson(deps)) {
    printJson(deps.io, copy);
    return;
  }
  say(deps.io, t(copy.isTest ? 'cards.copiedTest' : 'cards.copied', { number: opts.number, copy: copy.number }));
}

export async function runCardsOn(opts: CardsOnOptions, deps: Deps): Promise<void> {
  let answer;
  try {
    answer = await deps.client().listings.setState(opts.number, { active: true, ...(opts.auto === undefined ? {} : { autoIssue: opts.auto }) });
  } catch (error) {
    throw explainStateRefusal(error, opts.number);
  }
  if (wantsJson(deps)) {
    printJson(deps.io, answer);
    return;
  }
  say(deps.io, t(answer.autoIssue ? 'cards.cardIsOnAuto' : 'cards.cardIsOn', { number: answer.number }));
}

/** The refusals of switching on, with what to do about them. */
function explainStateRefusal(error: unknown, number: number): unknown {
  if (!(error instanceof RejectedError)) return error;
  const { kind, reason } = error.refusal;
  if (kind === 'stock_empty') {
    return new CliError(t('cards.rejectedStockEmptyAuto', { number }), 1, t('cards.refillItFirstSeller', { number }), error);
  }
  if (kind === 'complaint' && reason === 'delivery_method_not_stockable') {
    return new CliError(
      t('cards.rejectedComplaintAutoDelivery'),
      1,
      t('cards.switchTheCardOn', { number }),
      error,
    );
  }
  return error;
}

export async function runCardsOff(opts: CardNumberOptions, deps: Deps): Promise<void> {
  const answer = await deps.client().listings.setState(opts.number, { active: false });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t('cards.cardIsOff', { number: answer.number }));
}

export async function runCardsSetTest(opts: CardNumberOptions & { isTest: boolean }, deps: Deps): Promise<void> {
  let answer;
  try {
    answer = await deps.client().listings.setTest(opts.number, { isTest: opts.isTest });
  } catch (error) {
    if (error instanceof RejectedError && error.refusal.kind === 'test_to_real_needs_papers') {
      if (error.refusal.reason === 'test_seller') {
        throw new CliError(
          t('cards.rejectedTestToReal', { number: opts.number }),
          1,
          t('cards.onlyALiveSeller'),
          error,
        );
      }
      throw new CliError(
        t('cards.rejectedTestToReal2', { number: opts.number }),
        1,
        t('cards.completeYourPapersFirst'),
        error,
      );
    }
    throw error;
  }
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t(answer.isTest ? 'cards.isTest' : 'cards.isReal', { number: answer.number }));
}

export async function runCardsDelete(opts: CardsConfirmOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  await confirmDestructive(deps, opts.yes, t('cards.deleteCardACard', { number: opts.number }));
  const answer = await client.listings.delete(opts.number);
  if (wantsJson(deps)) printJson(deps.io, answer);
  else if (answer.result === 'deleted') say(deps.io, t('cards.deletedCard', { number: answer.number }));
  else say(deps.io, t('cards.cardHasOrdersSo', { number: answer.number }));
}

// ---------------------------------------------------------------------------------------------
// Image

type ImageType = (typeof IMAGE_TYPES)[number];

const BY_EXTENSION: Record<string, ImageType> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp' };

/** The image type by magic bytes, else by the file's extension; null when neither tells. */
export function imageTypeOf(bytes: Uint8Array, file: string): ImageType | null {
  const at = (i: number, ...b: number[]) => b.every((x, k) => bytes[i + k] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return BY_EXTENSION[extname(file).toLowerCase()] ?? null;
}

export async function runCardsImageSet(opts: CardsImageSetOptions, deps: Deps): Promise<void> {
  const bytes = await readInputFile(opts.file);
  const contentType = imageTypeOf(bytes, opts.file);
  if (!contentType) throw new UsageError(t('cards.isNotAPng', { file: opts.file }), t('cards.imageTypes', { IMAGE_TYPES: IMAGE_TYPES.join(', ') }));
  if (bytes.length > IMAGE_MAX_BYTES) {
    throw new UsageError(t('cards.isBytesAnImage', { file: opts.file, length: bytes.length, IMAGE_MAX_BYTES }));
  }
  const answer = await deps.client().listings.setImage(opts.number, { data: new Uint8Array(bytes), contentType });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t('cards.cardImage', { number: answer.number, url: answer.image.url }));
}

export async function runCardsImageRm(opts: CardsConfirmOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  await confirmDestructive(deps, opts.yes, t('cards.removeTheImageOf', { number: opts.number }));
  const answer = await client.listings.removeImage(opts.number);
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t('cards.removedTheImageOf', { number: answer.number }));
}
