/**
 * Waiting in end-to-end tests: polling a probe until it answers, and a free loopback port.
 */
import { createServer } from 'node:net';

export interface WaitOptions {
  /** How long to wait (default 10 s). */
  ms?: number;
  /** Between probes (default 25 ms). */
  every?: number;
  /** What to add to the timeout's message (what a child printed, the events seen). */
  describe?: () => string;
}

/**
 * Polls `probe` until it answers a value other than `undefined` or `false`, and answers that
 * value; throws `timed out waiting for <what>` (with `describe()`) after `ms`.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, opts: WaitOptions = {}): Promise<T> {
  const end = Date.now() + (opts.ms ?? 10_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${opts.describe ? `; ${opts.describe()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, opts.every ?? 25));
  }
}

/** A loopback port that was free a moment ago (for a child that must be told its port up front). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
