/**
 * A scenario's catalogue choices, checked before the run when the catalogue can be read: each
 * `card:` step's service, then its choices against the catalogue's position by the server's own
 * rules (sdk/contract/catalog-fit.ts `catalogMisfits`, which the server refuses a card by), so a
 * wrong choice is a problem of the file (every one named by step, field, value and allowed values;
 * nothing made) rather than a refused call halfway through.
 *
 * The catalogue is read with a seller's key (`catalogKey`: the CLI passes its profile's key or
 * SERVICE_API_KEY); without one, or when the read fails, the check is skipped and the server still
 * refuses a wrong card at its step.
 */
import { SellerClient } from '../client.ts';
import { catalogMisfits, type CardChoices, type PositionChoices } from '../contract/catalog-fit.ts';
import type { ScenarioIssue } from './errors.ts';
import { nearestField, type CheckedScenario } from './check.ts';

/** What the check needs of a catalogue position (sdk/contract/catalog.ts `Position`). */
export interface CatalogPosition extends PositionChoices {
  slug: string;
}

/** Every position of the catalogue, or undefined when it cannot be read (no key, a key without the catalog scope, a failed call). */
export async function readCatalog(settings: { baseUrl: string; fetch?: typeof fetch | undefined; userAgent?: string | undefined }, key: string | undefined): Promise<CatalogPosition[] | undefined> {
  if (key === undefined || key === '') return undefined;
  try {
    const client = new SellerClient({ baseUrl: settings.baseUrl, fetch: settings.fetch, userAgent: settings.userAgent, apiKey: key, maxRetries: 0 });
    const positions: CatalogPosition[] = [];
    for await (const position of client.catalog.list({ limit: 100 })) positions.push(position as CatalogPosition);
    return positions;
  } catch {
    return undefined;
  }
}

/** The problems of the scenario's card steps against the catalogue, each with its path and (given text) line. */
export function catalogIssues(scenario: Pick<CheckedScenario, 'steps' | 'lineOf'>, positions: readonly CatalogPosition[]): ScenarioIssue[] {
  const issues: ScenarioIssue[] = [];
  for (const step of scenario.steps) {
    if (step.verb !== 'card') continue;
    const at = ['steps', step.number - 1, 'card'] as const;
    const add = (field: string, code: 'not_in_catalog' | 'unknown_service', value: unknown, allowed: readonly (string | number)[], message: string, extra: Record<string, string> = {}) => {
      const line = scenario.lineOf?.([...at, field]);
      issues.push({
        path: `${step.path}.card.${field}`,
        ...(line === undefined ? {} : { line }),
        code,
        params: { step: String(step.number), field, value: String(value), allowed: allowed.join(', '), ...extra },
        message,
      });
    };
    const card = step.args as unknown as CardChoices & { service: string };
    const position = positions.find((p) => p.slug === card.service);
    if (!position) {
      const slugs = positions.map((p) => p.slug);
      const near = nearestField(card.service, slugs);
      add('service', 'unknown_service', card.service, slugs, `${card.service} is not a service of the catalogue${near ? `; did you mean ${near}?` : ''}`, near ? { near } : {});
      continue;
    }
    for (const misfit of catalogMisfits(position, card)) {
      add(misfit.field, 'not_in_catalog', misfit.value, misfit.allowed, `${misfit.value} is not offered by ${position.slug} for ${misfit.field}; allowed: ${misfit.allowed.join(', ')}`, { service: position.slug });
    }
  }
  return issues;
}
