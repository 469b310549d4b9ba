/**
 * A scenario's catalogue choices checked before the run (sdk/scenario/catalog.ts, issue 37 item 5):
 * `catalogIssues` names every card step's choice its position does not offer (step, field, value,
 * allowed values) and a service the catalogue lacks (with the nearest); `runScenario` with a
 * `catalogKey` reads the real server's catalogue and refuses such a file with ScenarioInvalidError,
 * nothing made; without a key, or with one that cannot read the catalogue, the check is skipped
 * and the server refuses the card at its step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogIssues, type CatalogPosition } from '../../sdk/scenario/catalog.ts';
import { checkScenario } from '../../sdk/scenario/check.ts';
import { runScenario, ScenarioFailedError, ScenarioInvalidError } from '../../sdk/scenario/index.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const SPOTIFY: CatalogPosition = {
  slug: 'spotify',
  tariffs: [{ slug: 'individual' }, { slug: 'duo' }, { slug: 'family' }],
  productTypes: ['subscription', 'account', 'code'],
  deliveryMethods: { subscription: ['own_account', 'invite'], account: ['credentials'], code: ['code'] },
  slaChoices: [30, 60, 180, 720],
  guaranteeChoices: [0, 7, 30, 90],
};

const card = (fields: string) => `steps:
  - seller: { as: shop }
  - card: { as: c, seller: shop, ${fields} }
`;
const GOOD = 'service: spotify, tariff: individual, productType: code, deliveryMethod: code, priceRub: 300, slaMinutes: 60, guaranteeDays: 7';

describe('catalogIssues', () => {
  it('finds nothing in a card its position offers', () => {
    expect(catalogIssues(checkScenario(card(GOOD)), [SPOTIFY])).toEqual([]);
  });

  it('names every choice the position does not offer: step, field, value, allowed values, with its line', () => {
    const scenario = checkScenario(card('service: spotify, tariff: solo, productType: code, deliveryMethod: credentials, priceRub: 300, slaMinutes: 45, guaranteeDays: 14'));
    const issues = catalogIssues(scenario, [SPOTIFY]);
    expect(issues.map((i) => [i.line, i.path, i.code, i.params?.['value'], i.params?.['allowed']])).toEqual([
      [3, 'steps[1].card.tariff', 'not_in_catalog', 'solo', 'individual, duo, family'],
      [3, 'steps[1].card.deliveryMethod', 'not_in_catalog', 'credentials', 'code'],
      [3, 'steps[1].card.slaMinutes', 'not_in_catalog', '45', '30, 60, 180, 720'],
      [3, 'steps[1].card.guaranteeDays', 'not_in_catalog', '14', '0, 7, 30, 90'],
    ]);
    expect(issues[2]).toMatchObject({ params: { step: '2', field: 'slaMinutes', service: 'spotify' }, message: '45 is not offered by spotify for slaMinutes; allowed: 30, 60, 180, 720' });
  });

  it('names a product type the position does not offer, and a service the catalogue lacks with the nearest', () => {
    const type = catalogIssues(checkScenario(card(GOOD.replace('productType: code', 'productType: credits'))), [SPOTIFY]);
    expect(type.map((i) => [i.path, i.params?.['allowed']])).toEqual([['steps[1].card.productType', 'subscription, account, code']]);
    const service = catalogIssues(checkScenario(card(GOOD.replace('spotify', 'spotfy'))), [SPOTIFY]);
    expect(service).toEqual([
      expect.objectContaining({ path: 'steps[1].card.service', code: 'unknown_service', params: expect.objectContaining({ value: 'spotfy', near: 'spotify', allowed: 'spotify' }) }),
    ]);
  });
});

describe('runScenario with a catalogKey, against a real seller-server', () => {
  let server: TestServer;
  const sellers = () => Object.keys(server.app.service.store.shared.sellers).length;
  const options = () => ({ baseUrl: server.url, adminToken: server.adminToken });
  // The seeded spotify position offers SLA 30, 60, 180 or 720 minutes.
  const WRONG = `${card(GOOD.replace('slaMinutes: 60', 'slaMinutes: 45').replace('tariff: individual', 'tariff: solo'))}  - buy: { as: o1, card: c }\n`;

  beforeAll(async () => {
    server = await startTestServer({ rateLimit: NO_RATE_LIMIT });
  }, 60_000);
  afterAll(async () => {
    const closing = server?.close();
    server?.app.server.closeAllConnections();
    await closing;
  });

  it('refuses a card whose choices the catalogue does not offer before anything is made', async () => {
    const { apiKey } = await server.newSeller();
    const before = sellers();
    const error = await runScenario(WRONG, { ...options(), catalogKey: apiKey }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScenarioInvalidError);
    expect((error as ScenarioInvalidError).issues.map((i) => [i.line, i.path, i.code, i.params?.['allowed']])).toEqual([
      [3, 'steps[1].card.tariff', 'not_in_catalog', 'individual, duo, family'],
      [3, 'steps[1].card.slaMinutes', 'not_in_catalog', '30, 60, 180, 720'],
    ]);
    expect(sellers()).toBe(before);
  });

  it('runs a card the catalogue offers', async () => {
    const { apiKey } = await server.newSeller();
    const result = await runScenario(card(GOOD), { ...options(), catalogKey: apiKey });
    expect(result.results.c).toMatchObject({ kind: 'card' });
  });

  it('skips the check without a key, and with a key that cannot read the catalogue: the server refuses the card at its step', async () => {
    for (const catalogKey of [undefined, 'service_test_notakey', (await server.newSeller({ scopes: ['orders'] })).apiKey]) {
      const before = sellers();
      const error = await runScenario(WRONG, { ...options(), catalogKey }).catch((e: unknown) => e);
      expect(error, String(catalogKey)).toBeInstanceOf(ScenarioFailedError);
      expect((error as ScenarioFailedError).step.number).toBe(2);
      expect((error as ScenarioFailedError).failure).toMatchObject({ kind: 'error', refusal: 'complaint', values: { field: 'tariff' } });
      expect(sellers()).toBe(before + 1);
    }
  });
});
