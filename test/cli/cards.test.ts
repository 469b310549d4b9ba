import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { imageTypeOf } from '../../cli/commands/cards.ts';
import { runCardsCreate, type WalkPrompter } from '../../cli/commands/cards-create.ts';
import { createDeps } from '../../cli/lib/deps.ts';
import type { Choice } from '../../cli/lib/prompts.ts';
import type { Card } from '../../sdk/contract/index.ts';
import { SOLO, SPOTIFY } from '../helpers/fixtures.ts';
import { apiError, bufferIO, fakeClient, LIVE_KEY, pagedOf, run, scriptedPrompter, tempConfigDir, tableBody } from './helpers.ts';

let config: ReturnType<typeof tempConfigDir>;
let env: Record<string, string>;
let files: string;
beforeEach(() => {
  config = tempConfigDir();
  env = { SERVICE_API_KEY: LIVE_KEY, SELLER_CONFIG_DIR: config.dir, NO_COLOR: '1' };
  files = mkdtempSync(join(tmpdir(), 'seller-cards-'));
});
afterEach(() => {
  config.cleanup();
  rmSync(files, { recursive: true, force: true });
});

const CARD: Card = {
  number: 1001,
  service: 'spotify',
  tariff: 'family',
  productType: 'code',
  deliveryMethod: 'code',
  priceRub: 390,
  slaMinutes: 30,
  guaranteeDays: 7,
  description: 'Instant code',
  creditsType: null,
  creditsAmount: null,
  creditsRate: null,
  declaredStock: 0,
  confirmRequired: false,
  isActive: true,
  isTest: false,
  autoIssue: true,
  stock: { free: 12, issued: 3 },
  image: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};

const CREATE_FLAGS = ['--service', 'spotify', '--tariff', 'family', '--type', 'code', '--delivery', 'code', '--sla', '30', '--guarantee', '7', '--price', '390'];

function cardsClient(extra: Record<string, unknown> = {}) {
  const create = vi.fn(async () => ({ number: 1001, isActive: false, isTest: true }));
  const get = vi.fn(async (slug: string) => (slug === 'soundcloud-go' ? SOLO : SPOTIFY));
  const client = fakeClient({ listings: { create }, catalog: { get }, ...extra });
  return { create, get, client: () => client };
}

describe('seller cards create (flags)', () => {
  it('builds the body from the flags and creates the card', async () => {
    const { create, client } = cardsClient();
    const result = await run(['cards', 'create', ...CREATE_FLAGS, '--description', 'Fast', '--confirm-required', '--stock', '5'], bufferIO({ env }), { client });
    expect(result.code).toBe(0);
    expect(create).toHaveBeenCalledWith({
      service: 'spotify',
      tariff: 'family',
      productType: 'code',
      deliveryMethod: 'code',
      priceRub: 390,
      slaMinutes: 30,
      guaranteeDays: 7,
      description: 'Fast',
      confirmRequired: true,
      stock: 5,
    });
    expect(result.out).toBe('Created card 1001 (switched off, test card).\n');
    expect(result.err).toContain('seller cards on 1001');
    expect(result.err).toContain('seller stock refill 1001');
  });

  it('leaves out the flags whose position allows one value', async () => {
    const { create, client } = cardsClient();
    const result = await run(['--json', 'cards', 'create', '--service', 'soundcloud-go', '--price', '199'], bufferIO({ env }), { client });
    expect(result.code).toBe(0);
    expect(create).toHaveBeenCalledWith({ service: 'soundcloud-go', tariff: '1m', productType: 'subscription', deliveryMethod: 'own_account', priceRub: 199, slaMinutes: 60, guaranteeDays: 30 });
    expect(JSON.parse(result.out)).toEqual({ number: 1001, isActive: false, isTest: true });
  });

  it('without a terminal names every missing flag at once (exit 2), before any call', async () => {
    const { create, get, client } = cardsClient();
    const result = await run(['cards', 'create', '--price', '100'], bufferIO({ env }), { client });
    expect(result.code).toBe(2);
    expect(result.err).toContain('missing flags: --service --tariff --type --delivery --sla --guarantee');
    expect(result.err).not.toContain('--price');
    expect(get).not.toHaveBeenCalled();
    expect(create).not.toHaveBeenCalled();
  });

  it('with --service, names what the position leaves open, with the allowed values', async () => {
    const { create, client } = cardsClient();
    const result = await run(['cards', 'create', '--service', 'spotify', '--type', 'subscription'], bufferIO({ env }), { client });
    expect(result.code).toBe(2);
    expect(result.err).toContain('missing flags: --tariff --delivery --sla --guarantee --price');
    expect(result.err).toContain('--tariff: individual, family');
    expect(result.err).toContain('--delivery: own_account, invite');
    expect(result.err).toContain('--sla: 30, 60, 180');
    expect(create).not.toHaveBeenCalled();
  });

  it('refuses a choice the position does not allow before the call (exit 2)', async () => {
    const { create, client } = cardsClient();
    const result = await run(['cards', 'create', ...CREATE_FLAGS.slice(0, -6), '--sla', '45', '--guarantee', '7', '--price', '390'], bufferIO({ env }), { client });
    expect(result.code).toBe(2);
    expect(result.err).toContain('--sla: 45 is not allowed');
    expect(result.err).toContain('30, 60, 180');
    expect(create).not.toHaveBeenCalled();
  });

  it('judges the product type by the position, not by our enum: one the position lacks is refused with its own list', async () => {
    const { client, create } = cardsClient();
    const flags = CREATE_FLAGS.map((f) => (f === 'code' ? 'gift' : f));
    const result = await run(['cards', 'create', ...flags], bufferIO({ env }), { client });
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--type: the position does not offer the product type gift\n.*subscription/);
    expect(create).not.toHaveBeenCalled();
  });

  it('reads the description from stdin with --description-file -', async () => {
    const { create, client } = cardsClient();
    const result = await run(['cards', 'create', ...CREATE_FLAGS, '--description-file', '-'], bufferIO({ env, stdin: 'Line one\nLine two\n\n' }), { client });
    expect(result.code).toBe(0);
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ description: 'Line one\nLine two' }));
  });

  it('refuses --description with --description-file', async () => {
    const { client } = cardsClient();
    const result = await run(['cards', 'create', ...CREATE_FLAGS, '--description', 'a', '--description-file', '-'], bufferIO({ env }), { client });
    expect(result.code).toBe(2);
    expect(result.err).toContain('not both');
  });

  it('shows a server refusal with its field and allowed values (exit 1)', async () => {
    const create = vi.fn(async () => {
      throw apiError(409, { error: 'rejected', refusal: { kind: 'contacts', field: 'description', reason: 'email' } });
    });
    const client = () => fakeClient({ listings: { create }, catalog: { get: async () => SPOTIFY } });
    const result = await run(['cards', 'create', ...CREATE_FLAGS], bufferIO({ env }), { client });
    expect(result.code).toBe(1);
    expect(result.err).toContain('refused: contacts');
    expect(result.err).toContain('field: description');
  });
});

/** A walk answered from a script; `sources` records the search results seen. */
function scriptedWalk(answers: { select?: string[]; search?: string[]; input?: string[]; confirm?: boolean[] }) {
  const asked: string[] = [];
  const options: Record<string, string[]> = {};
  const searched: Choice[][] = [];
  const take = <T>(queue: T[] | undefined, message: string): T => {
    asked.push(message);
    if (!queue || queue.length === 0) throw new Error(`unexpected question: ${message}`);
    return queue.shift()!;
  };
  const walk: WalkPrompter = {
    select: async (message, choices) => {
      options[message] = choices.map((c) => c.value);
      return take(answers.select, message);
    },
    search: async (message, source) => {
      searched.push(await source('spot'));
      return take(answers.search, message);
    },
    input: async (message) => take(answers.input, message),
    confirm: async (message) => take(answers.confirm, message),
  };
  return { walk, asked, options, searched };
}

describe('seller cards create (the walk on a terminal)', () => {
  it('asks for the service by search, then the position’s own choices, with the usual price as a hint', async () => {
    const create = vi.fn(async () => ({ number: 1002, isActive: false, isTest: false }));
    const list = vi.fn(() => pagedOf([[SPOTIFY]]));
    const usualPrice = vi.fn(async () => ({ service: 'spotify', productType: 'subscription', usualPriceRub: 299, liveCards: 4 }));
    const client = fakeClient({
      listings: { create },
      catalog: { get: async () => SPOTIFY, list, usualPrice },
      me: { get: async () => ({ sellerType: 'ip' }) },
    });
    const io = bufferIO({ env, tty: true });
    const deps = createDeps(io, {}, { client: () => client });
    const { walk, asked, options, searched } = scriptedWalk({
      search: ['spotify'],
      select: ['individual', 'subscription', 'invite', '60', '30'],
      input: ['290', 'Invite within the hour'],
      confirm: [true],
    });
    await runCardsCreate({}, deps, walk);
    expect(searched[0]).toEqual([{ value: 'spotify', name: 'Spotify Premium (spotify, music)' }]);
    expect(list).toHaveBeenCalledWith({ q: 'spot', limit: 20 });
    expect(asked).toEqual([
      'Service (type to search the catalogue)',
      'Tariff',
      'Product type',
      'Delivery method',
      'Delivery time (SLA)',
      'Guarantee',
      'Price, RUB (usual price 299 RUB)',
      'Description (optional, Enter to skip)',
      'Create this card?',
    ]);
    expect(options['Delivery method']).toEqual(['own_account', 'invite']);
    expect(options['Delivery time (SLA)']).toEqual(['30', '60', '180']);
    expect(usualPrice).toHaveBeenCalledWith({ service: 'spotify', productType: 'subscription' });
    expect(create).toHaveBeenCalledWith({
      service: 'spotify',
      tariff: 'individual',
      productType: 'subscription',
      deliveryMethod: 'invite',
      priceRub: 290,
      slaMinutes: 60,
      guaranteeDays: 30,
      description: 'Invite within the hour',
    });
    expect(io.out()).toContain('Created card 1002 (switched off).');
  });

  it('asks only what the flags left out, and offers a self-employed seller only what it may sell', async () => {
    const create = vi.fn(async () => ({ number: 1003, isActive: false, isTest: false }));
    const client = fakeClient({
      listings: { create },
      catalog: { get: async () => SPOTIFY, usualPrice: async () => ({ usualPriceRub: null }) },
      me: { get: async () => ({ sellerType: 'self_employed' }) },
    });
    const deps = createDeps(bufferIO({ env, tty: true }), {}, { client: () => client });
    const { walk, asked, options } = scriptedWalk({ select: ['own_account'], input: ['100', ''], confirm: [true] });
    await runCardsCreate({ service: 'spotify', tariff: 'family', sla: 30, guarantee: 0 }, deps, walk);
    // Product type: only `subscription` is left for a self-employed seller, so it is not asked.
    expect(asked).toEqual(['Delivery method', 'Price, RUB (usual price unknown)', 'Description (optional, Enter to skip)', 'Create this card?']);
    expect(options['Delivery method']).toEqual(['own_account', 'invite']);
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ productType: 'subscription', deliveryMethod: 'own_account', priceRub: 100 }));
    expect(create.mock.calls[0]).not.toHaveProperty('0.description');
  });

  it('checks the typed description with the contact filter at once and asks again, keeping every other answer', async () => {
    const create = vi.fn(async () => ({ number: 1004, isActive: false, isTest: false }));
    const client = fakeClient({ listings: { create }, catalog: { get: async () => SOLO, usualPrice: async () => ({ usualPriceRub: 150 }) }, me: { get: async () => ({ sellerType: null }) } });
    const io = bufferIO({ env, tty: true });
    const deps = createDeps(io, {}, { client: () => client });
    const { walk, asked } = scriptedWalk({ input: ['100', 'Пишите в т.ме/ivan_shop', 'mail: ｉｖａｎ＠ｍａｉｌ．ｒｕ', 'Код придёт в чат заказа за 5 минут'], confirm: [true] });
    // The real prompt gets the same check as its validate (inquirer asks again in place).
    let validate: ((value: string) => true | string) | undefined;
    const input = walk.input;
    walk.input = async (message, options) => {
      if (message.startsWith('Description')) validate = options?.validate;
      return input(message, options);
    };
    await runCardsCreate({ service: 'soundcloud-go' }, deps, walk);
    expect(asked.filter((m) => m.startsWith('Description'))).toHaveLength(3);
    expect(io.err()).toContain('a description contains a messenger contact "т.ме/ivan_shop"; contacts are not allowed; type it again.');
    expect(io.err()).toContain('an e-mail address "ｉｖａｎ＠ｍａｉｌ．ｒｕ"');
    expect(create).toHaveBeenCalledTimes(1);
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ priceRub: 100, description: 'Код придёт в чат заказа за 5 минут' }));
    expect(validate?.('call +7 999 123-45-67')).toMatch(/a phone number "\+7 999 123-45-67"/);
    expect(validate?.('YouTube Premium 12 месяцев за 1990 ₽')).toBe(true);
  });

  it('a description flag with contacts is refused before anything is sent (exit 2)', async () => {
    const create = vi.fn();
    const get = vi.fn(async () => SPOTIFY);
    const result = await run(['cards', 'create', ...CREATE_FLAGS, '--description', 'write to ivan@gmаil.com'], bufferIO({ env }), { client: () => fakeClient({ listings: { create }, catalog: { get } }) });
    expect(result.code).toBe(2);
    expect(result.err).toContain('--description: a description contains an e-mail address "ivan@gmаil.com"; contacts are not allowed (nothing was sent)');
    expect(create).not.toHaveBeenCalled();
    expect(get).not.toHaveBeenCalled();
  });

  it('a “no” at the end creates nothing (cancelled, exit 2)', async () => {
    const create = vi.fn();
    const client = fakeClient({ listings: { create }, catalog: { get: async () => SOLO, usualPrice: async () => ({ usualPriceRub: 150 }) }, me: { get: async () => ({ sellerType: null }) } });
    const deps = createDeps(bufferIO({ env, tty: true }), {}, { client: () => client });
    const { walk } = scriptedWalk({ input: ['100', ''], confirm: [false] });
    await expect(runCardsCreate({ service: 'soundcloud-go' }, deps, walk)).rejects.toMatchObject({ name: 'CancelledError', exitCode: 2 });
    expect(create).not.toHaveBeenCalled();
  });
});

describe('seller cards list|show', () => {
  it('lists cards as a table, with filters', async () => {
    const list = vi.fn(() => pagedOf([[CARD, { ...CARD, number: 1002, isActive: false, autoIssue: false, isTest: true }]]));
    const result = await run(['cards', 'list', '--inactive', '--service', 'spotify'], bufferIO({ env, tty: true }), { client: () => fakeClient({ listings: { list } }) });
    expect(result.code).toBe(0);
    expect(list).toHaveBeenCalledWith({ active: false, service: 'spotify', limit: undefined, cursor: undefined });
    expect(result.out.split('\n')[0]).toMatch(/^NUMBER\s+SERVICE\s+TARIFF\s+TYPE\s+DELIVERY\s+PRICE\s+STATE\s+STOCK$/);
    expect(result.out).toMatch(/1001\s+spotify\s+family\s+code\s+code\s+390\s+on, auto\s+12 free/);
    expect(result.out).toMatch(/1002 .*off, test/);
  });

  it('prints JSON with --json', async () => {
    const result = await run(['--json', 'cards', 'list', '--all'], bufferIO({ env }), { client: () => fakeClient({ listings: { list: () => pagedOf([[CARD], [CARD]]) } }) });
    expect(JSON.parse(result.out).items).toHaveLength(2);
  });

  it('shows one card with its stock counts', async () => {
    const get = vi.fn(async () => CARD);
    const result = await run(['cards', 'show', '1001'], bufferIO({ env }), { client: () => fakeClient({ listings: { get } }) });
    expect(get).toHaveBeenCalledWith(1001);
    expect(result.out).toMatch(/Stock:\s+12 free, 3 issued/);
    expect(result.out).toMatch(/Auto-delivery:\s+on/);
    expect(result.out).toMatch(/Delivery time:\s+30 min/);
  });

  it('refuses a card number that is not a number', async () => {
    const result = await run(['cards', 'show', 'abc'], bufferIO({ env }), { client: () => fakeClient({}) });
    expect(result.code).toBe(2);
  });
});

describe('seller cards update', () => {
  it('reads the card and sends the whole body with only the changed fields replaced', async () => {
    const get = vi.fn(async () => CARD);
    const update = vi.fn(async () => ({ number: 1001, isActive: true }));
    const result = await run(['cards', 'update', '1001', '--price', '450'], bufferIO({ env }), { client: () => fakeClient({ listings: { get, update } }) });
    expect(result.code).toBe(0);
    expect(update).toHaveBeenCalledWith(1001, {
      productType: 'code',
      deliveryMethod: 'code',
      priceRub: 450,
      slaMinutes: 30,
      guaranteeDays: 7,
      description: 'Instant code',
    });
    expect(result.out).toBe('Updated card 1001.\n');
    expect(result.err).toContain('public now');
  });

  it('changes several fields, the description from a file', async () => {
    const path = join(files, 'desc.txt');
    writeFileSync(path, 'New text\n');
    const update = vi.fn(async () => ({ number: 1001, isActive: false }));
    const client = () => fakeClient({ listings: { get: async () => CARD, update } });
    const result = await run(['cards', 'update', '1001', '--sla', '60', '--guarantee', '0', '--description-file', path], bufferIO({ env }), { client });
    expect(result.code).toBe(0);
    expect(update).toHaveBeenCalledWith(1001, expect.objectContaining({ slaMinutes: 60, guaranteeDays: 0, description: 'New text', priceRub: 390 }));
  });

  it('without a change is a usage error', async () => {
    const result = await run(['cards', 'update', '1001'], bufferIO({ env }), { client: () => fakeClient({}) });
    expect(result.code).toBe(2);
    expect(result.err).toContain('nothing to change');
  });
});

describe('seller cards on|off|test|real|copy', () => {
  it('on switches the card on, auto-delivery only with --auto / --no-auto', async () => {
    const setState = vi.fn(async (number: number, body: { active: boolean; autoIssue?: boolean }) => ({ number, isActive: body.active, autoIssue: body.autoIssue ?? false }));
    const client = () => fakeClient({ listings: { setState } });
    expect((await run(['cards', 'on', '1001', '--auto'], bufferIO({ env }), { client })).out).toBe('Card 1001 is on, with auto-delivery.\n');
    await run(['cards', 'on', '1001'], bufferIO({ env }), { client });
    await run(['cards', 'on', '1001', '--no-auto'], bufferIO({ env }), { client });
    await run(['cards', 'off', '1001'], bufferIO({ env }), { client });
    expect(setState.mock.calls).toEqual([
      [1001, { active: true, autoIssue: true }],
      [1001, { active: true }],
      [1001, { active: true, autoIssue: false }],
      [1001, { active: false }],
    ]);
  });

  it('on --auto with no stock says to refill first', async () => {
    const setState = async () => {
      throw apiError(409, { error: 'rejected', refusal: { kind: 'stock_empty', field: 'autoIssue' } });
    };
    const result = await run(['cards', 'on', '1001', '--auto'], bufferIO({ env }), { client: () => fakeClient({ listings: { setState } }) });
    expect(result.code).toBe(1);
    expect(result.err).toContain('stock_empty');
    expect(result.err).toContain('seller stock refill 1001 --file');
  });

  it('test and real mark the card', async () => {
    const setTest = vi.fn(async (number: number, body: { isTest: boolean }) => ({ number, isTest: body.isTest }));
    const client = () => fakeClient({ listings: { setTest } });
    expect((await run(['cards', 'test', '1001'], bufferIO({ env }), { client })).out).toContain('is a test card');
    expect((await run(['cards', 'real', '1001'], bufferIO({ env }), { client })).out).toBe('Card 1001 is real.\n');
    expect(setTest.mock.calls).toEqual([
      [1001, { isTest: true }],
      [1001, { isTest: false }],
    ]);
  });

  it('real without complete papers points to `seller papers show`', async () => {
    const setTest = async () => {
      throw apiError(409, { error: 'rejected', refusal: { kind: 'test_to_real_needs_papers', reason: 'admission_incomplete' } });
    };
    const result = await run(['cards', 'real', '1001'], bufferIO({ env }), { client: () => fakeClient({ listings: { setTest } }) });
    expect(result.code).toBe(1);
    expect(result.err).toContain('test_to_real_needs_papers');
    expect(result.err).toContain('seller papers show');
  });

  it('copy prints the new number', async () => {
    const copy = vi.fn(async () => ({ number: 1005, isActive: false, isTest: false }));
    const result = await run(['cards', 'copy', '1001'], bufferIO({ env }), { client: () => fakeClient({ listings: { copy } }) });
    expect(copy).toHaveBeenCalledWith(1001);
    expect(result.out).toContain('Copied card 1001 to card 1005 (switched off; stock is not copied).');
  });
});

describe('seller cards delete', () => {
  it('needs --yes without a terminal, and sends nothing', async () => {
    const del = vi.fn();
    const result = await run(['cards', 'delete', '1001'], bufferIO({ env }), { client: () => fakeClient({ listings: { delete: del } }) });
    expect(result.code).toBe(2);
    expect(result.err).toContain('--yes');
    expect(del).not.toHaveBeenCalled();
  });

  it('prints deleted or hidden', async () => {
    const del = vi.fn().mockResolvedValueOnce({ number: 1001, result: 'deleted' }).mockResolvedValueOnce({ number: 1002, result: 'hidden' });
    const client = () => fakeClient({ listings: { delete: del } });
    expect((await run(['cards', 'delete', '1001', '--yes'], bufferIO({ env }), { client })).out).toBe('Deleted card 1001.\n');
    expect((await run(['cards', 'delete', '1002', '-y'], bufferIO({ env }), { client })).out).toContain('hidden (switched off) instead of deleted');
  });

  it('asks on a terminal; a “no” deletes nothing', async () => {
    const del = vi.fn();
    const prompter = scriptedPrompter({ confirm: [false] });
    const result = await run(['cards', 'delete', '1001'], bufferIO({ env, tty: true }), { client: () => fakeClient({ listings: { delete: del } }), prompter });
    expect(result.code).toBe(2);
    expect(prompter.asked[0]).toContain('Delete card 1001?');
    expect(del).not.toHaveBeenCalled();
  });
});

describe('seller cards image', () => {
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

  it('tells the type by magic bytes, else by extension', () => {
    expect(imageTypeOf(PNG, 'x.jpg')).toBe('image/png');
    expect(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'x')).toBe('image/jpeg');
    expect(imageTypeOf(Buffer.from('RIFF\0\0\0\0WEBPVP8 '), 'x')).toBe('image/webp');
    expect(imageTypeOf(Buffer.from('hello'), 'photo.JPEG')).toBe('image/jpeg');
    expect(imageTypeOf(Buffer.from('hello'), 'notes.txt')).toBeNull();
  });

  it('set uploads the bytes with their type', async () => {
    const path = join(files, 'card.png');
    writeFileSync(path, PNG);
    const setImage = vi.fn(async () => ({ number: 1001, image: { url: 'http://x/images/1001.png' } }));
    const result = await run(['cards', 'image', 'set', '1001', path], bufferIO({ env }), { client: () => fakeClient({ listings: { setImage } }) });
    expect(result.code).toBe(0);
    expect(setImage).toHaveBeenCalledWith(1001, { data: new Uint8Array(PNG), contentType: 'image/png' });
    expect(result.out).toBe('Card 1001 image: http://x/images/1001.png\n');
  });

  it('set refuses a file that is no image, and a missing file', async () => {
    const path = join(files, 'notes.txt');
    writeFileSync(path, 'hello');
    const setImage = vi.fn();
    const client = () => fakeClient({ listings: { setImage } });
    const notImage = await run(['cards', 'image', 'set', '1001', path], bufferIO({ env }), { client });
    expect(notImage.code).toBe(2);
    expect(notImage.err).toContain('is not a PNG, JPEG or WebP image');
    const missing = await run(['cards', 'image', 'set', '1001', join(files, 'nope.png')], bufferIO({ env }), { client });
    expect(missing.code).toBe(2); // one exit code for a file that cannot be read (cli/lib/input.ts)
    expect(missing.err).toContain('no such file');
    expect(setImage).not.toHaveBeenCalled();
  });

  it('rm needs --yes without a terminal', async () => {
    const removeImage = vi.fn(async () => ({ number: 1001, image: null }));
    const client = () => fakeClient({ listings: { removeImage } });
    expect((await run(['cards', 'image', 'rm', '1001'], bufferIO({ env }), { client })).code).toBe(2);
    expect(removeImage).not.toHaveBeenCalled();
    const result = await run(['cards', 'image', 'rm', '1001', '--yes'], bufferIO({ env }), { client });
    expect(result.out).toBe('Removed the image of card 1001.\n');
  });
});

describe('seller catalog price|demand|request|requests', () => {
  it('price shows the usual price, or unknown under three live cards', async () => {
    const usualPrice = vi
      .fn()
      .mockResolvedValueOnce({ service: 'spotify', productType: 'code', usualPriceRub: 390, liveCards: 5 })
      .mockResolvedValueOnce({ service: 'spotify', productType: 'account', usualPriceRub: null, liveCards: 2 });
    const client = () => fakeClient({ catalog: { usualPrice } });
    const known = await run(['catalog', 'price', '--service', 'spotify', '--type', 'code'], bufferIO({ env }), { client });
    expect(known.out).toBe('Usual price of spotify (code): 390 RUB (median of 5 live cards)\n');
    expect(usualPrice).toHaveBeenCalledWith({ service: 'spotify', productType: 'code' });
    const unknown = await run(['catalog', 'price', '--service', 'spotify', '--type', 'account'], bufferIO({ env }), { client });
    expect(unknown.out).toBe('Usual price of spotify (account): unknown (fewer than 3 live cards)\n');
  });

  it('price names both missing flags', async () => {
    const result = await run(['catalog', 'price'], bufferIO({ env }), { client: () => fakeClient({}) });
    expect(result.code).toBe(2);
    expect(result.err).toContain('missing --service and --type');
  });

  it('demand is a table; --top is passed on', async () => {
    const demand = vi.fn(async () => ({ items: [{ service: 'spotify', productType: 'code', orders30d: 42, liveCards: 3, usualPriceRub: null }] }));
    const result = await run(['catalog', 'demand', '--top', '5'], bufferIO({ env, tty: true }), { client: () => fakeClient({ catalog: { demand } }) });
    expect(demand).toHaveBeenCalledWith({ service: undefined, productType: undefined, top: 5 });
    expect(result.out).toMatch(/SERVICE\s+TYPE\s+ORDERS 30D\s+LIVE CARDS\s+USUAL PRICE\nspotify\s+code\s+42\s+3\s+unknown/);
  });

  it('request files a request and prints its id and status', async () => {
    const create = vi.fn(async () => ({ id: 'req_1', title: 'Figma', category: 'software', url: null, comment: null, status: 'pending', createdAt: '2026-01-01T00:00:00.000Z', decidedAt: null }));
    const result = await run(['catalog', 'request', '--title', 'Figma', '--category', 'software'], bufferIO({ env }), { client: () => fakeClient({ catalogRequests: { create } }) });
    expect(create).toHaveBeenCalledWith({ title: 'Figma', category: 'software', url: undefined, comment: undefined });
    expect(result.out).toBe('Request req_1: pending\n');
  });

  it('request needs --title without a terminal', async () => {
    const result = await run(['catalog', 'request'], bufferIO({ env }), { client: () => fakeClient({}) });
    expect(result.code).toBe(2);
    expect(result.err).toContain('--title');
  });

  it('requests lists them', async () => {
    const req = { id: 'req_1', title: 'Figma', category: null, url: null, comment: null, status: 'approved', createdAt: '2026-01-01T00:00:00.000Z', decidedAt: '2026-01-02T00:00:00.000Z' };
    const result = await run(['catalog', 'requests'], bufferIO({ env }), { client: () => fakeClient({ catalogRequests: { list: () => pagedOf([[req]]) } }) });
    expect(tableBody(result.out)).toBe('req_1\tapproved\tFigma\t-\t2026-01-01T00:00:00.000Z\t2026-01-02T00:00:00.000Z\n');
  });
});
