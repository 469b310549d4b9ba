/**
 * A 5xx has no effect; a write that a restart shows is not answered 5xx. The journal written whole
 * is a seller's commit point (server/store/seller-files.ts): the disk fails at each step of a card
 * creation's commit in turn (opening, writing, flushing, closing, renaming, removing; the card
 * sequence, the journal, the files it places, the journal's removal and every directory flush),
 * once (a passing fault) or from that step on (a disk that filled up). At every step:
 *
 * - the answer is 500 up to the journal's rename, 201 after it;
 * - what reads show, while the disk is still failing, once it is healthy and after a restart,
 *   agrees with the answer: the card is there exactly when it was answered 201;
 * - a retry with the same Idempotency-Key makes exactly one card (a replay after a 201).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { Store } from '../../server/store/store.ts';
import { CODE_CARD, NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { TestDisk } from '../helpers/test-disk.ts';
import { ADMIN, call, newSeller } from './helpers.ts';

async function open(dir: string, disk: TestDisk): Promise<FastifyInstance> {
  return buildApp({ store: await Store.open({ dataDir: dir, fs: disk.fs }), adminToken: ADMIN, rateLimit: NO_RATE_LIMIT });
}

const cardNumbers = async (app: FastifyInstance, key: string): Promise<number[]> => {
  const res = await call<{ items: { number: number }[] }>(app, key, 'GET', '/api/v1/listings');
  expect(res.status, res.text).toBe(200);
  return res.body.items.map((c) => c.number).sort((a, b) => a - b);
};

interface Outcome {
  steps: string[];
  status: number;
}

/**
 * One world: a seller with one card, then a card creation under `key` with the disk failing at
 * `failStep` (null: not at all; `failAfter`: and every step after it), checked as the header says.
 */
async function walk(failStep: number | null, failAfter: boolean): Promise<Outcome> {
  const dir = await mkdtemp(path.join(tmpdir(), 'commit-steps-'));
  const disk = new TestDisk();
  const apps: FastifyInstance[] = [];
  try {
    const app = await open(dir, disk);
    apps.push(app);
    const seller = await newSeller(app, { admission: 'complete' });
    expect((await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD)).status).toBe(201);
    const before = await cardNumbers(app, seller.apiKey);
    const key = { 'idempotency-key': 'create-at-step' };

    disk.resetSteps();
    disk.recording = true;
    disk.failStep = failStep;
    disk.failAfter = failAfter;
    const answer = await call(app, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD, key);
    const steps = [...disk.steps];
    disk.recording = false;
    const where = `step ${failStep} (${failStep === null ? 'none' : steps[failStep]}), ${failAfter ? 'disk full' : 'once'}`;
    expect([201, 500], where).toContain(answer.status);
    const made = answer.status === 201 ? [answer.body.number as number] : [];
    const expected = [...before, ...made].sort((a, b) => a - b);

    // While the disk still fails, reads answer from memory: what the answer said.
    expect(await cardNumbers(app, seller.apiKey), `${where}: read while failing`).toEqual(expected);
    disk.failStep = null;
    expect(await cardNumbers(app, seller.apiKey), `${where}: read once healthy`).toEqual(expected);

    await app.close();
    apps.length = 0;
    const restarted = await open(dir, disk);
    apps.push(restarted);
    expect(await cardNumbers(restarted, seller.apiKey), `${where}: after a restart`).toEqual(expected);

    const retry = await call(restarted, seller.apiKey, 'POST', '/api/v1/listings', CODE_CARD, key);
    expect(retry.status, `${where}: retry`).toBe(201);
    if (answer.status === 201) {
      expect(retry.headers['idempotent-replayed'], where).toBe('true');
      expect(retry.body, where).toEqual(answer.body);
    } else {
      expect(retry.headers['idempotent-replayed'], where).toBeUndefined();
    }
    expect(await cardNumbers(restarted, seller.apiKey), `${where}: exactly one`).toEqual([...before, retry.body.number].sort((a, b) => a - b));
    return { steps, status: answer.status };
  } finally {
    for (const a of apps) await a.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The steps of a clean commit, and the number of the journal's rename (the commit point). */
async function commitSteps(): Promise<{ steps: string[]; commitPoint: number }> {
  const clean = await walk(null, false);
  expect(clean.status).toBe(201);
  const { steps } = clean;
  const commitPoint = steps.findIndex((s) => /^rename .*journal\.tmp → journal$/.test(s));
  expect(commitPoint, steps.join('\n')).toBeGreaterThan(0);
  // The walk covers the sequence, the journal, the files it places and the journal's removal.
  expect(steps.some((s) => s.startsWith('rename') && s.includes('seq.json'))).toBe(true);
  expect(steps.some((s) => /^rename .*cards-\d+\.json\.tmp/.test(s))).toBe(true);
  expect(steps.some((s) => s.startsWith('rm ') && s.endsWith('journal'))).toBe(true);
  expect(steps.filter((s) => s.startsWith('sync')).length).toBeGreaterThanOrEqual(6);
  return { steps, commitPoint };
}

describe('a card creation failing at each step of its commit', () => {
  for (const failAfter of [false, true]) {
    it(`${failAfter ? 'a disk full from that step on' : 'a fault at that step only'}: 500 before the journal is in place, 201 after; reads, a restart and a retry agree`, async () => {
      const { steps, commitPoint } = await commitSteps();
      for (let i = 0; i < steps.length; i++) {
        const { status } = await walk(i, failAfter);
        expect(status, `step ${i} (${steps[i]}), ${failAfter ? 'disk full' : 'once'}`).toBe(i <= commitPoint ? 500 : 201);
      }
    }, 300_000);
  }
});
