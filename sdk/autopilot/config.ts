/**
 * The autopilot's configuration: a zod schema (the file is the seller's input, so it is checked
 * strictly: unknown keys are errors, and every error names its path), `defineAutopilot()` for SDK
 * users (typed, checked the same way) and `parseAutopilotConfig()` for a parsed JSON or YAML file.
 *
 * Every rule is optional; a config with no rule and no `notify` is refused (it would do nothing).
 */
import { z } from 'zod';
import { PRODUCT_TYPES } from '../contract/constants.ts';
import type { ProductType } from '../contract/enums.ts';
import type { Widened } from '../open.ts';
import { contactsIn, contactsSentence } from '../contact-words.ts';
import { issueData } from '../issue-data.ts';

const positive = z.number().int().positive();

/** A command (run through the shell) or an HTTP hook (POST, JSON body) that the autopilot calls. */
export const Action = z
  .strictObject({
    /** A shell command; the JSON input is on its stdin, `SERVICE_*` variables in its environment. */
    command: z.string().min(1).optional(),
    /** An http(s) URL that receives the JSON input as a POST body. */
    hook: z.url({ protocol: /^https?$/ }).optional(),
    /** Extra headers of the hook's request (e.g. an authorization of your own service). */
    headers: z.record(z.string(), z.string()).optional(),
    /** Longest run of the command or the hook. @default 30 */
    timeoutSeconds: positive.max(3600).default(30),
  })
  .refine((a) => (a.command === undefined) !== (a.hook === undefined), { message: 'give exactly one of command or hook', params: { check: 'commandOrHook' } });
export type Action = z.output<typeof Action>;

/**
 * A product type to match: one of ours (offered in an editor) or any other the marketplace has (the
 * real catalogue decides, not our enum), written as the API writes one.
 */
const ProductTypeName = z
  .string()
  .refine((name) => /^[a-z][a-z0-9_]{0,63}$/.test(name), {
    message: `a product type such as ${PRODUCT_TYPES.join(', ')} (lower case, digits, _)`,
    params: { check: 'productTypeName', examples: [...PRODUCT_TYPES] },
  }) as unknown as z.ZodType<Widened<ProductType>>;

/** Which orders (by their card) a rule applies to; every given field must match. */
export const Match = z.strictObject({
  productType: z.union([ProductTypeName, z.array(ProductTypeName).min(1)]).optional(),
  service: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
  card: z.union([positive, z.array(positive).min(1)]).optional(),
});
export type Match = z.output<typeof Match>;

/** A text for buyers: checked offline by the marketplace's contact filter when the config is read. */
const BuyerText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .superRefine((text, ctx) => {
      const found = contactsIn(text);
      if (found) ctx.addIssue({ code: 'custom', message: `${contactsSentence('the text', found)}: the marketplace would refuse it`, params: { check: 'contacts', kinds: found.kinds } });
    });

export const DeliverRule = z.strictObject({
  /** A name for the status line and the log. @default `deliver#<index>` */
  name: z.string().min(1).max(60).optional(),
  match: Match,
  /** Produces the delivery: `{nextChargeDay?, note?, secret?}` as JSON (empty output: deliver as is). */
  action: Action,
  /** A note for the buyer when the action gives none. */
  note: BuyerText(4000).optional(),
});
export type DeliverRule = z.output<typeof DeliverRule>;

export const Notify = z.strictObject({
  command: z.string().min(1).optional(),
  hook: z.url({ protocol: /^https?$/ }).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  timeoutSeconds: positive.max(3600).default(30),
});
export type Notify = z.output<typeof Notify>;

export const DeadlineRule = z.strictObject({
  /** Warn this many minutes before an order's delivery deadline (`deliverBy`). */
  warnMinutesBefore: positive.max(7 * 24 * 60),
  /** Warn as soon as an order is disputed (a dispute waits for the seller's answer). @default true */
  disputes: z.boolean().default(true),
  /** Where a warning goes besides the status line: a command or a hook. */
  notify: Notify.optional(),
});

export const BacklogRule = z
  .strictObject({
    /** Open orders (awaiting confirmation or delivery, disputed) above which the work mode is set. */
    above: positive,
    /** Open orders at or below which the saved work mode is restored. @default `above` */
    restoreAt: z.number().int().min(0).optional(),
    /** The work mode while the backlog lasts: capacity and/or do-not-disturb. Presence is never set. */
    set: z
      .strictObject({ capacity: positive.max(10_000).optional(), doNotDisturb: z.boolean().optional() })
      .refine((s) => s.capacity !== undefined || s.doNotDisturb !== undefined, { message: 'set capacity, doNotDisturb or both', params: { check: 'capacityOrDnd' } }),
  })
  .refine((b) => b.restoreAt === undefined || b.restoreAt <= b.above, { message: 'restoreAt must not be above `above`', path: ['restoreAt'], params: { check: 'restoreAtAbove' } });

export const StockRule = z.strictObject({
  /** How often the named cards' stock is read. @default 60 */
  everySeconds: positive.default(60),
  cards: z
    .array(
      z.strictObject({
        card: positive,
        /** Alert when the free stock falls to this many units or fewer. */
        lowAt: z.number().int().min(0).optional(),
        /** Switch auto-delivery back on after a refill when the empty stock switched it off. @default true */
        reenableAutoDelivery: z.boolean().default(true),
      }),
    )
    .min(1),
  notify: Notify.optional(),
});

export const RepriceRule = z.strictObject({
  /** At most one price change per card in this many minutes. @default 60 */
  intervalMinutes: z.number().positive().default(60),
  /** JSON Lines file that gets one line per change, with the price before and after. */
  auditLog: z.string().min(1),
  cards: z
    .array(
      z
        .strictObject({
          card: positive,
          /** Never below this price (roubles). */
          floor: positive,
          /** Never above this price (roubles). */
          ceiling: positive,
          /** Aim at the usual price plus this (negative: under it). @default 0 */
          offsetRub: z.number().int().default(0),
          /** Move at most this far in one change. @default no limit */
          maxStepRub: positive.optional(),
        })
        .refine((c) => c.floor <= c.ceiling, { message: 'floor must not be above ceiling', path: ['floor'], params: { check: 'floorAboveCeiling' } }),
    )
    .min(1),
});

export const RepliesRule = z.strictObject({
  /** Most automatic replies to one order's buyer. @default 1 */
  maxPerOrder: positive.max(20).default(1),
  /** Also answer unanswered buyer questions about the cards. @default false */
  questions: z.boolean().default(false),
  templates: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(60).optional(),
        /** Words or phrases; a message matches when it contains any of them (case-insensitive). */
        keywords: z.array(z.string().min(1)).min(1),
        text: BuyerText(2000),
      }),
    )
    .min(1),
});

/**
 * A webhook receiver that makes the autopilot poll at once when a signed delivery comes (events are
 * a convenience; polling stays the source). Forward deliveries to it with a tunnel, or with
 * `seller hooks probe --forward-to http://127.0.0.1:<port>/hooks`.
 */
export const WebhooksConfig = z.strictObject({
  listen: z.strictObject({
    /** 0 takes a free port (the `listening` event says which). */
    port: z.number().int().min(0).max(65535),
    host: z.string().min(1).default('127.0.0.1'),
    path: z.string().regex(/^\/[A-Za-z0-9/_.-]*$/, 'a path such as /hooks').default('/hooks'),
  }),
  /** File holding the signing secret (`seller hooks set --secret-file`); else SERVICE_WEBHOOK_SECRET. */
  secretFile: z.string().min(1).optional(),
});

/** Where `{order}` goes in `notify.telegram.orderUrl`. */
export const ORDER_URL_PLACE = '{order}';

/** An order's link from the template: `{order}` (each) replaced by the id, URL-encoded. */
export const orderLink = (template: string, order: string): string => template.split(ORDER_URL_PLACE).join(encodeURIComponent(order));

/** `notify.telegram.orderUrl`: an http(s) URL template with `{order}`. */
const OrderUrl = z.string().superRefine((template, ctx) => {
  let url: URL | undefined;
  try {
    url = new URL(orderLink(template, 'ord_1'));
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    ctx.addIssue({ code: 'custom', message: 'an http(s) URL such as https://example.com/orders/{order}', params: { check: 'orderUrl' } });
  } else if (!template.includes(ORDER_URL_PLACE)) {
    ctx.addIssue({ code: 'custom', message: 'put {order} where the order id goes, such as https://example.com/orders/{order}', params: { check: 'orderUrlPlace' } });
  } else if (!url.hostname.includes('.')) {
    // Telegram refuses a button's link to such a host (localhost): every message with it would be refused
    ctx.addIssue({ code: 'custom', message: `Telegram refuses links to ${url.hostname}: use 127.0.0.1 or a domain name`, params: { check: 'orderUrlHost', host: url.hostname } });
  }
});

/**
 * The seller's Telegram: the chosen events as messages to `chats` (written by the client that runs
 * the autopilot: `seller autopilot` from its catalogue), and commands from those chats only. The
 * bot token is never here: `SERVICE_TELEGRAM_TOKEN`, or the file `tokenFile` names.
 */
export const TelegramNotify = z.strictObject({
  /** The seller's chat ids: they get the messages, and only they may command. */
  chats: z.array(z.number().int()).min(1),
  /** A file holding the bot token (relative to the config file); else SERVICE_TELEGRAM_TOKEN. */
  tokenFile: z.string().min(1).optional(),
  /** The Bot API's root; the sandbox's is `http://HOST:PORT/sandbox/telegram`. @default https://api.telegram.org */
  apiRoot: z.url({ protocol: /^https?$/ }).default('https://api.telegram.org'),
  /**
   * A link to an order's page: an http(s) URL with `{order}` where the order id goes (the sandbox's
   * page `http://HOST:PORT/sandbox?order={order}`, or the marketplace's order page). Given, every
   * message about an order carries a Timeline button that opens it.
   */
  orderUrl: OrderUrl.optional(),
  /** This channel's own choice of events (see `NotifyConfig.events`). */
  events: z.array(z.string().min(1)).min(1).optional(),
  /** This channel's own `sales` (see `NotifyConfig.sales`). */
  sales: z.boolean().optional(),
});
export type TelegramNotify = z.output<typeof TelegramNotify>;

/**
 * Where the chosen events of every rule go (besides the status line), through an outbox kept in
 * the state file: Telegram, and/or a `command` or `hook` of the rule-level {@link Notify}'s shape
 * that gets each event as JSON (with its `say` form and values).
 */
export const NotifyConfig = z
  .strictObject({
    telegram: TelegramNotify.optional(),
    command: z.string().min(1).optional(),
    hook: z.url({ protocol: /^https?$/ }).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    timeoutSeconds: positive.max(3600).default(30),
    /**
     * The events to send, as `--json` names them: a `type` (`needs-hand`, any rule) or `rule.type`
     * (`deliver.failed`). @default what needs a human (`NEEDS_A_HUMAN`, sdk/autopilot/outbox.ts)
     */
    events: z.array(z.string().min(1)).min(1).optional(),
    /** Also a message for every paid and every delivered order. @default false */
    sales: z.boolean().default(false),
  })
  .refine((n) => !(n.command !== undefined && n.hook !== undefined), { message: 'give at most one of command or hook', params: { check: 'commandAndHook' } })
  .refine((n) => n.telegram !== undefined || n.command !== undefined || n.hook !== undefined, { message: 'give telegram, a command or a hook', params: { check: 'noChannel' } });
export type NotifyConfig = z.output<typeof NotifyConfig>;

export const AutopilotConfig = z
  .strictObject({
    /** Seconds between two polls of the orders (and the timer of the other rules). @default 5 */
    pollSeconds: z.number().positive().max(3600).default(5),
    /** Deliveries run at the same time. @default 4 */
    concurrency: positive.max(32).default(4),
    deliver: z.array(DeliverRule).min(1).optional(),
    deadline: DeadlineRule.optional(),
    backlog: BacklogRule.optional(),
    stock: StockRule.optional(),
    reprice: RepriceRule.optional(),
    replies: RepliesRule.optional(),
    webhooks: WebhooksConfig.optional(),
    /** Where the chosen events go: Telegram, a command, a hook. A config with only `notify` is a watcher that tells. */
    notify: NotifyConfig.optional(),
  })
  .refine((c) => ['deliver', 'deadline', 'backlog', 'stock', 'reprice', 'replies', 'notify'].some((rule) => c[rule as keyof typeof c] !== undefined), {
    message: 'no rule configured: add at least one of deliver, deadline, backlog, stock, reprice, replies, notify',
    params: { check: 'noRule' },
  });

/** The configuration as written (defaults optional). */
export type AutopilotConfigInput = z.input<typeof AutopilotConfig>;
/** The configuration after checking (defaults filled in). */
export type AutopilotConfig = z.output<typeof AutopilotConfig>;

/**
 * One wrong value of a configuration, as data (like the API's errors): its path, its English
 * `message`, and what a client needs to say it in its own words: `check` (and `values`) for the
 * autopilot's own checks and the file's (`commandOrHook`, `noRule`, `contacts`, `noFile`, `notYaml`,
 * …), or `issue`, the schema library's standard issue (zod's `code`, `expected`, `minimum`, `values`,
 * `keys`, … without the input), which zod's locales say in other languages.
 */
export interface AutopilotConfigIssue {
  /** `deliver[0].match.productType`; `(file)` for the file itself, `(top level)` for the whole config. */
  path: string;
  message: string;
  check?: string | undefined;
  values?: Record<string, unknown> | undefined;
  issue?: Record<string, unknown> | undefined;
}

/** The configuration is wrong; `issues` name each wrong value by its path. */
export class AutopilotConfigError extends Error {
  override name = 'AutopilotConfigError';
  constructor(
    readonly source: string,
    readonly issues: AutopilotConfigIssue[],
  ) {
    super(`${source}: ${issues.length === 1 ? 'an error' : `${issues.length} errors`}\n${issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}`);
  }
}

/** `deliver[0].match.productType` from zod's path. */
function pathOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out === '' ? '' : '.'}${String(part)}`;
  return out === '' ? '(top level)' : out;
}

/** A zod issue as data: our own checks by their `check` id, the standard ones as zod's issue without the input. */
function configIssue(issue: z.core.$ZodIssue): AutopilotConfigIssue {
  const path = pathOf(issue.path);
  const params = issue.code === 'custom' ? (issue.params as Record<string, unknown> | undefined) : undefined;
  if (typeof params?.['check'] === 'string') {
    const { check, ...values } = params;
    return { path, message: issue.message, check: check as string, ...(Object.keys(values).length > 0 ? { values } : {}) };
  }
  return { path, message: issue.message, issue: issueData(issue) };
}

/** Checks a parsed config; throws `AutopilotConfigError` naming every wrong path. */
export function parseAutopilotConfig(value: unknown, source = 'autopilot config'): AutopilotConfig {
  const result = AutopilotConfig.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw new AutopilotConfigError(
    source,
    result.error.issues.map((issue) => configIssue(issue)),
  );
}

/**
 * A typed, checked autopilot configuration for SDK users.
 *
 * @example
 * const config = defineAutopilot({
 *   deliver: [{ match: { productType: 'subscription' }, action: { command: './activate.sh' } }],
 *   deadline: { warnMinutesBefore: 15 },
 * });
 * await runAutopilot(client, config, { statePath: '.autopilot-state.json', signal });
 */
export function defineAutopilot(config: AutopilotConfigInput): AutopilotConfig {
  return parseAutopilotConfig(config, 'defineAutopilot()');
}

/** Whether an order's card matches a rule's `match`. */
export function matches(match: Match, order: { productType: string; service: string; number: number }): boolean {
  const has = <T>(want: T | T[] | undefined, value: T) => want === undefined || (Array.isArray(want) ? want.includes(value) : want === value);
  return has(match.productType as string | string[] | undefined, order.productType) && has(match.service, order.service) && has(match.card, order.number);
}
