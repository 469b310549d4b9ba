/**
 * Tool names from operation ids (gaps.md: `service_<resource>[_<verb>]`, snake_case, list tools are
 * the bare plural). The rule, applied to every id `section.verb` of the table:
 *
 * 1. resource = the section in snake_case (`workMode` → `work_mode`, `catalogRequests` → `catalog_requests`);
 * 2. `list` → `service_<resource>` (`orders.list` → `service_orders`);
 * 3. `get` of a section without a `list` (a singleton) → `service_<resource>` (`me.get` → `service_me`,
 *    `stock.get` → `service_stock`, `hooks.get` → `service_hooks`);
 * 4. any other verb, and `get` of a section that also lists → `service_<resource>_<verb in snake_case>`
 *    (`orders.get` → `service_orders_get`, `orders.deliver` → `service_orders_deliver`,
 *    `listings.setState` → `service_listings_set_state`, `catalog.usualPrice` → `service_catalog_usual_price`).
 *
 * The names are unique over the table (a test checks it) and match `^service_[a-z0-9_]+$`.
 */
import { apiOperations, type ApiOperationId } from '../../sdk/contract/index.ts';

export const TOOL_PREFIX = 'service_';
export const TOOL_NAME_PATTERN = /^service_[a-z0-9_]+$/;

const snake = (word: string): string => word.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** The tool name of an operation id, given all ids of the table (rule 3 needs to know the lists). */
export function toolNameOf(opId: string, allIds: readonly string[]): string {
  const [section = '', verb = ''] = opId.split('.');
  const resource = snake(section);
  const singleton = !allIds.includes(`${section}.list`);
  if (verb === 'list' || (verb === 'get' && singleton)) return `${TOOL_PREFIX}${resource}`;
  return `${TOOL_PREFIX}${resource}_${snake(verb)}`;
}

const IDS = Object.keys(apiOperations) as ApiOperationId[];

/** Every API operation's tool name. */
export const TOOL_NAMES = Object.fromEntries(IDS.map((id) => [id, toolNameOf(id, IDS)])) as Record<ApiOperationId, string>;

/** The name of one operation's tool (for cross-references in descriptions and instructions). */
export const tool = (id: ApiOperationId): string => TOOL_NAMES[id];

const words = (camel: string): string => snake(camel).replace(/_/g, ' ');
const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** A human title: `orders.deliver` → "Orders: deliver", `me.get` → "Me". */
export function toolTitle(opId: string): string {
  const [section = '', verb = ''] = opId.split('.');
  const name = capital(words(section));
  return verb === 'get' && !IDS.includes(`${section}.list` as ApiOperationId) ? name : `${name}: ${words(verb)}`;
}
