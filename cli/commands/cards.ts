/**
 * `seller cards …`: the seller's cards (listings; scope `listings`).
 * list, show, create (cards-create.ts), update (sends the whole body), copy, on/off (auto-delivery
 * with `--auto`), test/real, delete, image set/rm. Destructive verbs confirm on a terminal and need
 * `--yes` otherwise.
 */
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

const numberArg = ['<number>', 'card number'] as const;
const byNumber = (number: number): CardNumberOptions => ({ number });

export const register: Register = (noun, app) => {
  listOptions(
    noun
      .command('list')
      .alias('ls')
      .description('List your cards')
      .addOption(new Option('--active', 'only switched-on cards'))
      .addOption(new Option('--inactive', 'only switched-off cards').conflicts('active'))
      .option('--service <slug>', 'only cards of this catalogue position'),
    'cards',
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
    .description('Show a card with its stock counts')
    .argument(...numberArg, positiveInt)
    .action(app.run(byNumber, runCardsShow));

  createCommand(noun).action(app.run((o: CardsCreateOptions) => o, (opts, deps) => runCardsCreate(opts, deps)));

  addEditableFlags(
    noun
      .command('update')
      .description('Change a card: the current card is read and sent whole, with only the given fields replaced')
      .argument(...numberArg, positiveInt),
  )
    .addHelpText('after', '\nService, tariff and product type cannot change (copy the card, or create another).\n\nExample:\n  $ seller cards update 1001 --price 450')
    .action(app.run((number: number, o: EditableFlags): CardsUpdateOptions => ({ ...o, number }), runCardsUpdate));

  noun
    .command('copy')
    .description('Copy a card into a new, switched-off card (stock is not copied)')
    .argument(...numberArg, positiveInt)
    .action(app.run(byNumber, runCardsCopy));

  noun
    .command('on')
    .description('Switch a card on (its price becomes a public offer)')
    .argument(...numberArg, positiveInt)
    .option('--auto', 'also switch auto-delivery from stock on')
    .option('--no-auto', 'switch auto-delivery off')
    .addHelpText(
      'after',
      '\nAuto-delivery needs free stock: refill it first (`seller stock refill NUMBER --file ITEMS.txt`).\n\nExamples:\n  $ seller cards on 1001\n  $ seller cards on 1001 --auto',
    )
    .action(app.run((number: number, o: { auto?: boolean }): CardsOnOptions => ({ number, auto: o.auto }), runCardsOn));

  noun
    .command('off')
    .description('Switch a card off')
    .argument(...numberArg, positiveInt)
    .action(app.run(byNumber, runCardsOff));

  noun
    .command('test')
    .description('Mark a card as test (only test buyers can buy it)')
    .argument(...numberArg, positiveInt)
    .action(app.run(byNumber, (opts, deps) => runCardsSetTest({ ...opts, isTest: true }, deps)));

  noun
    .command('real')
    .description('Mark a test card as real (needs complete admission papers)')
    .argument(...numberArg, positiveInt)
    .action(app.run(byNumber, (opts, deps) => runCardsSetTest({ ...opts, isTest: false }, deps)));

  noun
    .command('delete')
    .alias('rm')
    .description('Delete a card; a card that has orders is hidden (switched off) instead')
    .argument(...numberArg, positiveInt)
    .option('-y, --yes', 'do not ask for confirmation')
    .action(app.run((number: number, o: { yes?: boolean }): CardsConfirmOptions => ({ number, yes: o.yes === true }), runCardsDelete));

  const image = noun.command('image').description('Set or remove the card image');
  image
    .command('set')
    .description('Upload the card image (PNG, JPEG or WebP, at most 2 MiB)')
    .argument(...numberArg, positiveInt)
    .argument('<file>', 'image file')
    .action(app.run((number: number, file: string): CardsImageSetOptions => ({ number, file }), runCardsImageSet));
  image
    .command('rm')
    .alias('remove')
    .description('Remove the card image')
    .argument(...numberArg, positiveInt)
    .option('-y, --yes', 'do not ask for confirmation')
    .action(app.run((number: number, o: { yes?: boolean }): CardsConfirmOptions => ({ number, yes: o.yes === true }), runCardsImageRm));
};

// ---------------------------------------------------------------------------------------------
// Reading

export async function runCardsList(opts: CardsListOptions, deps: Deps): Promise<void> {
  const call = deps.client().listings.list({ active: opts.active, service: opts.service, limit: opts.limit, cursor: opts.cursor });
  await printList(deps, call, {
    all: opts.all,
    what: 'cards',
    empty: 'No cards.',
    columns: [
      { header: 'NUMBER', value: (c) => c.number },
      { header: 'SERVICE', value: (c) => c.service },
      { header: 'TARIFF', value: (c) => c.tariff },
      { header: 'TYPE', value: (c) => c.productType },
      { header: 'DELIVERY', value: (c) => c.deliveryMethod },
      { header: 'PRICE', value: (c) => c.priceRub },
      { header: 'STATE', value: stateOf },
      { header: 'STOCK', value: (c) => `${c.stock.free} free` },
    ],
  });
}

/** `on`, `on, auto`, `off`, with `, test` for test cards. */
function stateOf(card: Card): string {
  return [card.isActive ? 'on' : 'off', ...(card.autoIssue ? ['auto'] : []), ...(card.isTest ? ['test'] : [])].join(', ');
}

export async function runCardsShow(opts: CardNumberOptions, deps: Deps): Promise<void> {
  const card = await deps.client().listings.get(opts.number);
  if (wantsJson(deps)) {
    printJson(deps.io, card);
    return;
  }
  const credits =
    card.creditsType === 'pack' ? `pack of ${card.creditsAmount}` : card.creditsType === 'rate' ? `${card.creditsRate} per rouble` : undefined;
  printFields(deps.io, [
    ['Number', card.number],
    ['Service', `${card.service} / ${card.tariff}`],
    ['Product', `${card.productType} by ${card.deliveryMethod}`],
    ...(credits ? [['Credits', credits] as const] : []),
    ['Price', `${card.priceRub} RUB`],
    ['Delivery time', minutes(card.slaMinutes)],
    ['Guarantee', card.guaranteeDays === 0 ? 'none' : `${card.guaranteeDays} d`],
    ['State', card.isActive ? 'on' : 'off'],
    ['Auto-delivery', card.autoIssue ? 'on' : 'off'],
    ['Test card', card.isTest ? 'yes' : 'no'],
    ['Confirm orders', card.confirmRequired ? 'yes' : 'no'],
    ['Stock', `${card.stock.free} free, ${card.stock.issued} issued`],
    ['Declared stock', card.declaredStock],
    ['Image', card.image?.url],
    ['Description', card.description],
    ['Updated', card.updatedAt],
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
      'nothing to change',
      'give at least one of --price, --delivery, --sla, --guarantee, --description, --description-file, --credits-type, --credits-amount, --credits-rate',
    );
  }
  const client = deps.client();
  const card = await client.listings.get(opts.number);
  const answer = await client.listings.update(opts.number, cardUpdateOf(card, changes));
  if (wantsJson(deps)) {
    printJson(deps.io, answer);
    return;
  }
  say(deps.io, `Updated card ${answer.number}.`);
  if (answer.isActive) note(deps.io, 'The card is switched on: the new values are public now.');
}

export async function runCardsCopy(opts: CardNumberOptions, deps: Deps): Promise<void> {
  const copy = await deps.client().listings.copy(opts.number);
  if (wantsJson(deps)) {
    printJson(deps.io, copy);
    return;
  }
  say(deps.io, `Copied card ${opts.number} to card ${copy.number} (switched off${copy.isTest ? ', test card' : ''}; stock is not copied).`);
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
  say(deps.io, `Card ${answer.number} is on${answer.autoIssue ? ', with auto-delivery' : ''}.`);
}

/** The refusals of switching on, with what to do about them. */
function explainStateRefusal(error: unknown, number: number): unknown {
  if (!(error instanceof RejectedError)) return error;
  const { kind, field } = error.refusal;
  if (kind === 'stock_empty') {
    return new CliError(`auto-delivery needs free stock, and card ${number} has none (rejected: stock_empty)`, 1, `refill it first: seller stock refill ${number} --file ITEMS.txt`, error);
  }
  if (kind === 'complaint' && field === 'autoIssue') {
    return new CliError(
      `auto-delivery works only for cards delivered by credentials or code (rejected: complaint)`,
      1,
      `switch the card on without --auto: seller cards on ${number} --no-auto`,
      error,
    );
  }
  return error;
}

export async function runCardsOff(opts: CardNumberOptions, deps: Deps): Promise<void> {
  const answer = await deps.client().listings.setState(opts.number, { active: false });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, `Card ${answer.number} is off.`);
}

export async function runCardsSetTest(opts: CardNumberOptions & { isTest: boolean }, deps: Deps): Promise<void> {
  let answer;
  try {
    answer = await deps.client().listings.setTest(opts.number, { isTest: opts.isTest });
  } catch (error) {
    if (error instanceof RejectedError && error.refusal.kind === 'test_to_real_needs_papers') {
      if (error.refusal.reason === 'test_seller') {
        throw new CliError(
          `card ${opts.number} stays a test card: this seller or key is in test mode (rejected: test_to_real_needs_papers)`,
          1,
          'only a live seller with complete papers sells real cards; use a live key',
        );
      }
      throw new CliError(
        `card ${opts.number} cannot become real while your admission papers are incomplete (rejected: test_to_real_needs_papers)`,
        1,
        'complete your papers first: see what is missing with `seller papers show`',
      );
    }
    throw error;
  }
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, answer.isTest ? `Card ${answer.number} is a test card (only test buyers can buy it).` : `Card ${answer.number} is real.`);
}

export async function runCardsDelete(opts: CardsConfirmOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  await confirmDestructive(deps, opts.yes, `Delete card ${opts.number}? (A card that has orders is hidden instead.)`);
  const answer = await client.listings.delete(opts.number);
  if (wantsJson(deps)) printJson(deps.io, answer);
  else if (answer.result === 'deleted') say(deps.io, `Deleted card ${answer.number}.`);
  else say(deps.io, `Card ${answer.number} has orders, so it was hidden (switched off) instead of deleted.`);
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
  if (!contentType) throw new UsageError(`${opts.file} is not a PNG, JPEG or WebP image`, `image types: ${IMAGE_TYPES.join(', ')}`);
  if (bytes.length > IMAGE_MAX_BYTES) {
    throw new UsageError(`${opts.file} is ${bytes.length} bytes; an image is at most ${IMAGE_MAX_BYTES} bytes (2 MiB)`);
  }
  const answer = await deps.client().listings.setImage(opts.number, { data: new Uint8Array(bytes), contentType });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, `Card ${answer.number} image: ${answer.image.url}`);
}

export async function runCardsImageRm(opts: CardsConfirmOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  await confirmDestructive(deps, opts.yes, `Remove the image of card ${opts.number}?`);
  const answer = await client.listings.removeImage(opts.number);
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, `Removed the image of card ${answer.number}.`);
}
