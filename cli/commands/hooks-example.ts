/**
 * Whole webhook bodies from the contract, for `seller hooks example KIND` and `seller hooks send
 * --event KIND [--data JSON]`: the event, its `data` (an example built from the contract's schema
 * of that kind, sdk/webhooks/event-schema.derived.ts, with the fields of `--data` over it) and the
 * delivery's envelope (`delivery`, `attempt`, `at`) filled. And the envelope fields a hand-written
 * body lacks, named all at once before it is sent.
 */
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { EVENT_KINDS } from '../../sdk/contract/enums.ts';
import { exampleOf } from '../../sdk/openapi-examples.ts';
import type { JsonSchema } from '../../sdk/openapi-schemas.ts';
import { t } from '../i18n/index.ts';
import type { App } from '../lib/command.ts';
import type { Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { say } from '../lib/output.ts';

/** The fields of a delivery's envelope, besides `event` and `data`. */
export const ENVELOPE_FIELDS = ['delivery', 'attempt', 'at'] as const;

/** A new delivery id, shaped as the service's. */
export function newDeliveryId(): string {
  // i18next-instrument-ignore-next-line: an alphabet for ids, not text
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return `dlv_${[...randomBytes(24)].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

/** The example `data` of a known event kind, from the contract's schema; `{}` for a kind it does not know. */
async function exampleData(kind: string): Promise<Record<string, unknown>> {
  // Loaded on use: other commands do not pay for the schema.
  const { WEBHOOK_EVENT_SCHEMA } = await import('../../sdk/webhooks/event-schema.derived.ts');
  const variant = (WEBHOOK_EVENT_SCHEMA.oneOf ?? []).find((v) => v.properties?.event?.const === kind);
  const data = variant?.properties?.data;
  return data ? (exampleOf(data as JsonSchema, {}) as Record<string, unknown>) : {};
}

/** A whole delivery body of `kind`: envelope filled (a new delivery id, attempt 1, now), `data` over the example. */
export async function exampleBody(kind: string, data: Record<string, unknown> = {}, now = new Date()): Promise<Record<string, unknown>> {
  return { event: kind, delivery: newDeliveryId(), attempt: 1, at: now.toISOString(), data: { ...(await exampleData(kind)), ...data } };
}

/** The envelope fields a JSON object body lacks (none when it is not a JSON object: sent as it is). */
export function missingEnvelope(fields: Record<string, unknown> | null): string[] {
  if (fields === null) return [];
  return ENVELOPE_FIELDS.filter((name) => !Object.hasOwn(fields, name));
}

/** `--data JSON`: an object, or a usage error. */
export function parseData(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(t('hooksExample.dataNotJson'));
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(t('hooksExample.dataNotJson'));
  return value as Record<string, unknown>;
}

export function registerExample(noun: Command, app: App): void {
  noun
    .command('example')
    .description(t('hooksExample.description'))
    .argument('<kind>', t('hooksExample.kindArgument', { kinds: EVENT_KINDS.join(', ') }))
    .option('--data <json>', t('hooksExample.dataOption'))
    .action(app.run((kind: string, o: { data?: string }) => ({ kind, data: o.data }), runHooksExample));
}

export async function runHooksExample(opts: { kind: string; data?: string | undefined }, deps: Deps): Promise<void> {
  if (!(EVENT_KINDS as readonly string[]).includes(opts.kind)) {
    throw new UsageError(t('hooksExample.unknownKind', { kind: opts.kind, kinds: EVENT_KINDS.join(', ') }));
  }
  const data = opts.data === undefined ? {} : parseData(opts.data);
  say(deps.io, JSON.stringify(await exampleBody(opts.kind, data), null, 2));
}
