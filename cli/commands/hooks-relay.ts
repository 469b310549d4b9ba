/**
 * `seller hooks probe --forward-to URL`: real webhooks on a developer's machine without a tunnel,
 * as `stripe listen --forward-to` does. The service's probe receiver keeps what it got, raw body and
 * headers included (`GET /hooks/probe`); this polls it and relays each new hit to a local handler,
 * byte for byte, with its original `content-type` and the five `x-service-*` headers, so the
 * handler verifies the real signature with the real secret.
 *
 * At most once per hit, across restarts: a hit is identified by its `receivedAt`, delivery id,
 * attempt and body (sha256 of them; a retried delivery is a new hit, as a real receiver gets it
 * again). The ids of relayed hits are kept in a state file under the CLI's config directory, one
 * per profile and base URL (`relay/<hash>.json`, 0600), written BEFORE the hit is sent: a crash
 * between the two loses that hit rather than sending it twice, and a failed relay (the handler down)
 * is shown, not retried (send it again with `seller hooks test`, or `seller hooks send`). The first
 * run for a profile and base URL relays only hits that arrive after it starts; a later run also
 * relays what arrived while it was stopped (as long as the probe still keeps it: its newest 50).
 */
import { t } from '../i18n/index.ts';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { WEBHOOK_HEADERS } from '../../sdk/contract/events.ts';
import type { ProbeHit } from '../../sdk/contract/hooks.ts';
import { configDir } from '../lib/config.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { describeError, UsageError } from '../lib/errors.ts';
import { nodeFetch } from '../lib/http.ts';
import { note, say, warn } from '../lib/output.ts';
import { deliveryFacts, failureText, pollProbe, shortTime } from './hooks-common.ts';

type Hit = z.output<typeof ProbeHit>;

export interface RelayOptions {
  forwardTo: string;
  intervalSeconds: number;
  once: boolean;
  /** Time limit of one relay to the handler, in milliseconds. */
  timeoutMs?: number | undefined;
}

/** One relayed hit, as its status line (and NDJSON line) tells it. */
export interface RelayRecord {
  receivedAt: string;
  event: string | null;
  delivery: string | null;
  attempt: number | null;
  /** The handler's answer status; null when it could not be reached. */
  status: number | null;
  error?: string | undefined;
  /** The time limit the forward ran out of, when that is why it failed. */
  timeoutMs?: number | undefined;
  ms: number;
}

/** The headers relayed: content-type and the five `x-service-*` ones, as the probe got them. */
const RELAYED_HEADERS = ['content-type', ...Object.values(WEBHOOK_HEADERS)];

/** Checks the address of a local handler (`--forward-to`, `hooks send <url>`): http(s). */
export function parseForwardTo(value: string, what = '--forward-to'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(t('hooks.isNotAnAddress', { what, value }));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(t('hooks.onlyHttpAndHttps', { what }));
  return url.href;
}

/** The identity of a hit: sha256 of its time, delivery, attempt and body. */
export function hitId(hit: Hit): string {
  const facts = deliveryFacts(hit.headers);
  return createHash('sha256')
    .update([hit.receivedAt, facts.delivery ?? '', facts.attempt ?? '', hit.body].join('\n'))
    .digest('hex')
    .slice(0, 32);
}

/** The state file of a profile and base URL: the ids of hits already relayed (or seen at the first start). */
export class RelayState {
  readonly path: string;
  seen: Set<string>;
  readonly existed: boolean;

  constructor(env: Record<string, string | undefined>, profile: string, baseUrl: string) {
    const dir = join(configDir(env), 'relay');
    const name = createHash('sha256').update(`${profile}\n${baseUrl}`).digest('hex').slice(0, 16);
    this.path = join(dir, `${name}.json`);
    let seen: string[] | undefined;
    try {
      const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as { seen?: unknown };
      if (Array.isArray(parsed.seen)) seen = parsed.seen.filter((id): id is string => typeof id === 'string');
    } catch {
      seen = undefined;
    }
    this.existed = seen !== undefined;
    this.seen = new Set(seen);
  }

  /** Writes the state atomically (0600 temporary file, then rename). */
  save(): void {
    mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ version: 1, seen: [...this.seen] })}\n`, { mode: 0o600 });
    renameSync(temp, this.path);
  }
}

/** Relays one hit to the handler; answers what happened (never throws for the handler's failures). */
export async function relayHit(hit: Hit, forwardTo: string, timeoutMs: number, signal: AbortSignal): Promise<RelayRecord> {
  const facts = deliveryFacts(hit.headers);
  const headers: Record<string, string> = {};
  for (const name of RELAYED_HEADERS) {
    const value = hit.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  headers['content-type'] ??= 'application/json';
  const started = Date.now();
  const record: RelayRecord = {
    receivedAt: hit.receivedAt,
    event: facts.event ?? null,
    delivery: facts.delivery ?? null,
    attempt: facts.attempt !== undefined && /^\d+$/.test(facts.attempt) ? Number(facts.attempt) : null,
    status: null,
    ms: 0,
  };
  try {
    const answer = await nodeFetch(forwardTo, {
      method: 'POST',
      headers,
      body: Buffer.from(hit.body, 'utf8'),
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
    record.status = answer.status;
  } catch (error) {
    if (signal.aborted) throw error;
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const timedOut = typeof cause?.code !== 'string' && error instanceof Error && error.name === 'TimeoutError';
    // i18next-instrument-ignore-next-line: the record's English (--json); failureText says it for people from `timeoutMs`
    record.error = typeof cause?.code === 'string' ? cause.code : timedOut ? `no answer within ${timeoutMs} ms` : String(error);
    if (timedOut) record.timeoutMs = timeoutMs;
  }
  record.ms = Date.now() - started;
  return record;
}

function printRecord(deps: Deps, record: RelayRecord, json: boolean): void {
  const { io } = deps;
  if (json) {
    io.stdout.write(`${JSON.stringify(record)}\n`);
    return;
  }
  const answer = record.status === null ? t('hooks.relayFailed', { error: failureText({ ...record, error: record.error ?? '' }) }) : String(record.status);
  const cells = [
    shortTime(record.receivedAt, io.stdoutIsTTY),
    record.event ?? '-',
    record.delivery ?? '-',
    record.attempt === null ? '-' : t('hooks.attempt', { attempt: record.attempt }),
    // i18next-instrument-ignore-next-line: an arrow before a translated answer
    `→ ${answer}`,
    t('hooks.ms', { ms: record.ms }),
  ];
  say(io, cells.join(io.stdoutIsTTY ? '  ' : '\t'));
}

/** Polls the probe and relays each new hit until `signal` aborts (or once). */
export async function relayProbe(opts: RelayOptions, deps: Deps, signal: AbortSignal): Promise<void> {
  const { io } = deps;
  const settings = deps.settings();
  const client = deps.client();
  const json = wantsJson(deps);
  const state = new RelayState(io.env, settings.profile, settings.baseUrl);

  const { url } = await client.hooks.createProbe();
  const hooks = await client.hooks.get();
  note(io, t('hooks.probeReceiver', { url }));
  if (hooks.url !== url || hooks.status === 'off') note(io, t('hooks.subscribeItSellerHooks2', { url }));
  note(io, t(opts.once ? 'hooks.relayingOnce' : 'hooks.relaying', { forwardTo: opts.forwardTo }));

  let first = !state.existed;
  for (;;) {
    const hits = await pollProbe(client, io, opts, signal);
    if (signal.aborted) return;
    if (hits) {
      const window = new Set(hits.map(hitId));
      if (first) {
        // The first start for this profile and address: what is there already is history, not news.
        state.seen = window;
        state.save();
        if (window.size > 0) note(io, t('hooks.earlierNotRelayed', { count: window.size }));
        first = false;
      } else {
        for (const hit of [...hits].reverse()) {
          const id = hitId(hit);
          if (state.seen.has(id)) continue;
          state.seen.add(id);
          state.save(); // before sending: at most once, even if this process dies now
          let record: RelayRecord;
          try {
            record = await relayHit(hit, opts.forwardTo, opts.timeoutMs ?? 10_000, signal);
          } catch (error) {
            if (signal.aborted) return;
            throw error;
          }
          printRecord(deps, record, json);
        }
        // The probe keeps its newest hits only: what it no longer has cannot come back.
        state.seen = new Set([...state.seen].filter((id) => window.has(id)));
        state.save();
      }
    }
    if (opts.once) return;
    try {
      await sleep(opts.intervalSeconds * 1000, undefined, { signal });
    } catch {
      return; // aborted: Ctrl-C is the normal end
    }
  }
}
