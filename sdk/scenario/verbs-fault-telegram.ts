/**
 * The two verbs with rules across their fields: `fault:` (the service misbehaving on purpose, by
 * `faultBody`'s own rules) and `telegram:` (a bot of the emulator, or the person writing to it).
 * A broken rule is a zod custom issue with `params.scenario` (its code, as data: ./check.ts `rule`).
 */
import { z } from 'zod';
import { faultBody, FaultFlagsError, type FaultFlags } from '../sandbox-faults.ts';
import { asA, d, Name } from './schema-parts.ts';

const timesOrDuration = z.union([z.number(), z.string()]).transform(String);

/**
 * A `fault:` step: `seller sandbox fault add`'s flags as keys (`drop-after` or `dropAfter`), `seller`
 * naming a seller of the scenario (none: every seller). Checked by `faultBody()` itself before the
 * run (every problem it names), with a stand-in seller id; the run gives it the seller's.
 */
export const FaultStep = z
  .strictObject({
    ...asA('fault'),
    seller: d(Name.optional(), 'only this seller\'s calls or deliveries (a name given by seller); default: every seller'),
    bot: d(Name.optional(), 'only this Telegram bot\'s calls, for a telegram.* fault (a name given by a telegram step)'),
    op: d(z.string().optional(), 'a seller-API operation id (orders.deliver) or * for every one; a Telegram method (telegram.sendMessage) or telegram.*'),
    status: d(z.union([z.number(), z.string()]).optional(), 'answer this status instead of running the call: 429, 500, 502 or 503'),
    retryAfter: d(timesOrDuration.optional(), 'with status: the Retry-After it sends (5s, 1m; at most 1h)'),
    latency: d(timesOrDuration.optional(), 'answer late: wait this long (2s, 500ms; at most 60s), then run the call'),
    drop: d(z.boolean().optional(), 'drop the connection before the call runs'),
    'drop-after': d(z.boolean().optional(), 'the same as dropAfter'),
    dropAfter: d(z.boolean().optional(), 'run the call, then drop the connection unanswered (the change is made)'),
    hooks: d(z.string().optional(), 'webhook chaos: duplicate, reorder, fail, or delay:DUR (delay:5s)'),
    times: d(z.union([z.number(), z.string()]).optional(), 'end after this many hits'),
    for: d(timesOrDuration.optional(), 'end after this long on the server clock (30s, 10m)'),
    every: d(z.union([z.number(), z.string()]).optional(), 'hit every Nth matching call only (from 2)'),
  })
  .transform((step, ctx) => {
    const { as: name, 'drop-after': dash, dropAfter, ...flags } = step;
    const written: FaultFlags = { ...flags, ...(dash ?? dropAfter) === undefined ? {} : { dropAfter: dash ?? dropAfter } };
    try {
      faultBody({ ...written, seller: written.seller === undefined ? undefined : 'sel_standin', bot: written.bot === undefined ? undefined : 1 });
    } catch (error) {
      if (!(error instanceof FaultFlagsError)) throw error;
      for (const problem of error.problems) {
        const field = problem.field === 'dropAfter' && dash !== undefined ? 'drop-after' : problem.field;
        // The rule's code and field as data, so a client says the problem in its own words (`scenario: 'fault'`).
        const value = problem.code === 'invalid' || problem.code === 'unknown_op' ? { value: String((step as Record<string, unknown>)[field]).trim() } : {};
        ctx.addIssue({ code: 'custom', path: [field], message: problem.detail, params: { scenario: 'fault', problem: problem.code, field: problem.field, ...value } });
      }
      return z.NEVER;
    }
    return { ...(name === undefined ? {} : { as: name }), ...written };
  });

/**
 * A `telegram:` step (issue #36): `{as: phone}` makes a bot of the emulator; `{bot: phone, chat: 1,
 * say: "/pause"}` is the person writing to it; `{bot: phone, chat: 1, press: DATA}` the person
 * pressing the newest button of that callback data (data, since labels are translated).
 */
export const TelegramStep = z
  .strictObject({
    ...asA('bot'),
    username: d(z.string().optional(), 'a new bot\'s username, ending in bot (default: a new sandbox_N_bot)'),
    bot: d(Name.optional(), 'the bot the person writes to (a name given by a telegram step)'),
    chat: d(z.number().int().min(1).optional(), 'with bot: the private chat, the person\'s id'),
    say: d(z.string().trim().min(1).max(4096).optional(), 'with bot: the person writes this text (/pause)'),
    press: d(z.string().min(1).max(64).optional(), 'with bot: the person presses the newest button of this callback data'),
  })
  .superRefine((step, ctx) => {
    const acts = (['say', 'press'] as const).filter((k) => step[k] !== undefined);
    const problem = (path: string, message: string, scenario: string) => ctx.addIssue({ code: 'custom', path: [path], message, params: { scenario } });
    if (step.bot === undefined) {
      for (const k of ['chat', ...acts] as const) if (step[k] !== undefined) problem(k, 'only with bot: a new bot takes as (and username) only', 'telegram_only_with_bot');
      return;
    }
    if (step.as !== undefined || step.username !== undefined) problem(step.as !== undefined ? 'as' : 'username', 'a new bot names no bot; with bot, say or press', 'telegram_new_bot');
    if (step.chat === undefined) problem('chat', 'required with bot: the private chat (the person\'s id)', 'telegram_chat');
    if (acts.length !== 1) problem('say', 'with bot, give exactly one of say or press', 'telegram_one_act');
  });
