/**
 * A mock seeded by a scenario of `service-seller/scenario` (its runner takes a `fetch`: it runs in
 * process, before msw listens). The runner is the SDK's, loaded when a scenario is given.
 */
import type { MockSeller } from './seed.ts';

/** What a scenario run made (`ScenarioResult` of `service-seller/scenario`): everything, and the named things by name. */
export interface ScenarioMade {
  made: Array<{ kind: string; name: string; [field: string]: unknown }>;
  results: Record<string, { kind: string; name: string; [field: string]: unknown }>;
}

export async function runSeedScenario(input: string | object, options: { baseUrl: string; adminToken: string; fetch: typeof fetch }): Promise<ScenarioMade> {
  const { runScenario } = await import('../../sdk/scenario/index.ts');
  const result = await runScenario(input, { ...options, holder: 'service-seller-server/msw' });
  return { made: result.made as unknown as ScenarioMade['made'], results: result.results as unknown as ScenarioMade['results'] };
}

/** The scenario's sellers, in the order it made them, with the numbers of their cards. */
export function scenarioSellers(made: ScenarioMade): MockSeller[] {
  const sellers = made.made.filter((m) => m.kind === 'seller');
  return sellers.map((s) => ({
    name: s.name,
    sellerId: s.id as string,
    keyId: s.keyId as string,
    apiKey: s.key as string,
    cards: made.made.filter((m) => m.kind === 'card' && m.sellerId === s.id).map((m) => m.number as number),
  }));
}
