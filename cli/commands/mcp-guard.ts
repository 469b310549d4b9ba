/**
 * Guardrails of `seller mcp` for agents, applied by the bridge on this computer (whatever the
 * service allows the key):
 * - `--read-only`: only tools the service marks `readOnlyHint: true` are listed and may be called;
 * - `--allow NAME[,NAME…]` (repeatable; `service_orders*` matches a prefix): only these tools;
 * - `--confirm`: tools that move money or write to buyers (CONFIRM_TOOLS) get a required boolean
 *   argument `confirm`; a call without `confirm: true` is answered by the bridge, not sent, with a
 *   message asking the agent to get the person's agreement first. `confirm` is removed before the
 *   call is forwarded.
 * A refused call is answered as the service answers a failed tool (`isError: true`, the text a JSON
 * error `{error, detail}`), so that agents handle it as any other refusal.
 */

/** Tools that move money (delivery releases payment, declines refund, prices and offers, payout details) or write to buyers. */
export const CONFIRM_TOOLS: ReadonlySet<string> = new Set([
  'service_orders_deliver',
  'service_orders_decline',
  'service_orders_confirm',
  'service_orders_message',
  'service_orders_put_vault',
  'service_orders_dispute_reply',
  'service_questions_answer',
  'service_reviews_reply',
  'service_complaints_create',
  'service_listings_update',
  'service_listings_set_state',
  'service_papers_set_payout',
]);

export const CONFIRM_ARGUMENT = 'confirm';

export interface Guard {
  readOnly: boolean;
  /** Names or `prefix*` patterns; undefined: every tool. */
  allow?: readonly string[] | undefined;
  confirm: boolean;
}

/** Whether the guard changes anything (without one, the bridge forwards untouched). */
export const guarding = (guard: Guard): boolean => guard.readOnly || guard.allow !== undefined || guard.confirm;

export interface ToolInfo {
  name: string;
  inputSchema?: { type?: string; properties?: Record<string, unknown>; required?: string[] };
  annotations?: { readOnlyHint?: boolean };
  description?: string;
  [key: string]: unknown;
}

const allowed = (patterns: readonly string[], name: string) =>
  patterns.some((p) => (p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : name === p));

/** Why the guard hides or refuses a tool, or `null` when it may be used. */
export function blockReason(guard: Guard, tool: Pick<ToolInfo, 'name' | 'annotations'> | undefined, name: string): string | null {
  if (guard.allow !== undefined && !allowed(guard.allow, name)) return `${name} is not in this bridge's allow-list (seller mcp --allow)`;
  if (guard.readOnly && tool?.annotations?.readOnlyHint !== true) return `${name} changes data and this bridge is read-only (seller mcp --read-only)`;
  return null;
}

/** The tool list as the guard shows it: blocked tools left out, `confirm` added where it is needed. */
export function guardToolList(guard: Guard, tools: readonly ToolInfo[]): ToolInfo[] {
  return tools
    .filter((tool) => blockReason(guard, tool, tool.name) === null)
    .map((tool) => {
      if (!guard.confirm || !CONFIRM_TOOLS.has(tool.name)) return tool;
      const schema = tool.inputSchema ?? { type: 'object' };
      return {
        ...tool,
        description: `${tool.description ?? ''}\nMoves money or writes to a buyer: ask the person first, then call with confirm: true.`.trim(),
        inputSchema: {
          ...schema,
          properties: { ...(schema.properties ?? {}), [CONFIRM_ARGUMENT]: { type: 'boolean', const: true, description: 'true once the person agreed to this exact call' } },
          required: [...new Set([...(schema.required ?? []), CONFIRM_ARGUMENT])],
        },
      };
    });
}

export type CallCheck = { ok: true; arguments: Record<string, unknown> } | { ok: false; error: string; detail: string };

/** Checks a `tools/call`: refused, or allowed with the arguments to forward (`confirm` removed). */
export function checkCall(guard: Guard, tool: ToolInfo | undefined, name: string, args: Record<string, unknown>): CallCheck {
  const blocked = blockReason(guard, tool, name);
  if (blocked) return { ok: false, error: 'tool_not_allowed', detail: blocked };
  const { [CONFIRM_ARGUMENT]: confirm, ...rest } = args;
  if (guard.confirm && CONFIRM_TOOLS.has(name)) {
    if (confirm !== true) {
      return { ok: false, error: 'confirmation_required', detail: `${name} moves money or writes to a buyer: ask the person, then call again with confirm: true` };
    }
    return { ok: true, arguments: rest };
  }
  return { ok: true, arguments: args };
}
