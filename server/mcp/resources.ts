/**
 * Resources: catalogue positions, cards and orders as `service://` URIs, read through the same
 * pipeline as the matching get operation (so scopes, ownership and the rate limit apply).
 *
 * - `resources/templates/list`: the templates whose operation the key's scopes allow.
 * - `resources/list`: the catalogue positions (needs scope `catalog`; otherwise an empty list),
 *   paged with the catalogue's own cursor. Cards and orders change too often to be listed here:
 *   the tools list them.
 * - `resources/read`: one JSON document. A record that is absent or another seller's is -32002;
 *   another refusal (scope) is -32001 with the API error body as `data`.
 */
import { apiOperations, type AnyOperation, type ErrorBody, type Position } from '../../sdk/contract/index.ts';
import type { Exchange } from './exchange.ts';
import { RpcCode, RpcFault } from './jsonrpc.ts';
import { scopeAllows } from './tools.ts';

export const MIME_JSON = 'application/json';

interface Template {
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
  op: AnyOperation;
  param: string;
  pattern: RegExp;
}

const template = (scheme: string, param: string, op: AnyOperation, name: string, title: string, description: string): Template => ({
  uriTemplate: `service://${scheme}/{${param}}`,
  name,
  title,
  description,
  op,
  param,
  pattern: new RegExp(`^service://${scheme}/([^/?#]+)$`),
});

export const TEMPLATES: readonly Template[] = [
  template('catalog', 'slug', apiOperations['catalog.get'], 'catalog-position', 'Catalogue position', 'A catalogue position: tariffs, product types, delivery methods, slaChoices, guaranteeChoices.'),
  template('listings', 'number', apiOperations['listings.get'], 'card', 'Card', 'One of your cards with its stock counts.'),
  template('orders', 'id', apiOperations['orders.get'], 'order', 'Order', 'One of your orders with its messages.'),
];

const visible = (ex: Exchange, t: Template) => ex.serves(t.op.id) && scopeAllows(ex.caller.key.scopes, t.op.scope);

export function listTemplates(ex: Exchange): { resourceTemplates: unknown[] } {
  ex.charge();
  return {
    resourceTemplates: TEMPLATES.filter((t) => visible(ex, t)).map(({ uriTemplate, name, title, description }) => ({
      uriTemplate,
      name,
      title,
      description,
      mimeType: MIME_JSON,
    })),
  };
}

const catalogList = apiOperations['catalog.list'];

export async function listResources(ex: Exchange, params: Record<string, unknown>): Promise<{ resources: unknown[]; nextCursor?: string }> {
  if (!ex.serves(catalogList.id) || !scopeAllows(ex.caller.key.scopes, catalogList.scope)) {
    ex.charge();
    return { resources: [] };
  }
  const cursor = params.cursor;
  if (cursor !== undefined && typeof cursor !== 'string') {
    ex.charge();
    throw new RpcFault(RpcCode.invalidParams, 'invalid params: cursor must be a string');
  }
  const answer = await ex.run(catalogList, { query: cursor === undefined ? { limit: 200 } : { limit: 200, cursor } });
  if (answer.status >= 400) throw refusal(answer.body as ErrorBody);
  const page = answer.body as { items: Position[]; nextCursor: string | null };
  const resources = page.items.map((p) => ({
    uri: `service://catalog/${p.slug}`,
    name: p.slug,
    title: p.title,
    description: `${p.category}: ${p.productTypes.join(', ')}`,
    mimeType: MIME_JSON,
  }));
  return page.nextCursor ? { resources, nextCursor: page.nextCursor } : { resources };
}

export async function readResource(ex: Exchange, params: Record<string, unknown>): Promise<{ contents: unknown[] }> {
  const { uri } = params;
  if (typeof uri !== 'string') {
    ex.charge();
    throw new RpcFault(RpcCode.invalidParams, 'invalid params: uri must be a string');
  }
  const found = TEMPLATES.map((t) => ({ t, m: t.pattern.exec(uri) })).find(({ t, m }) => m && ex.serves(t.op.id));
  if (!found?.m) {
    ex.charge();
    throw new RpcFault(RpcCode.invalidParams, `unknown resource uri: ${uri} (see resources/templates/list)`);
  }
  let value: string;
  try {
    value = decodeURIComponent(found.m[1]!);
  } catch {
    ex.charge();
    throw new RpcFault(RpcCode.invalidParams, `unknown resource uri: ${uri}`);
  }
  const answer = await ex.run(found.t.op, { params: { [found.t.param]: value } });
  if (answer.status >= 400) throw refusal(answer.body as ErrorBody, uri);
  return { contents: [{ uri, mimeType: MIME_JSON, text: JSON.stringify(answer.body) }] };
}

function refusal(body: ErrorBody, uri?: string): RpcFault {
  if (body.error === 'not_found' || body.refusal?.kind === 'not_found') {
    return new RpcFault(RpcCode.resourceNotFound, `resource not found: ${uri ?? ''}`.trim(), { uri, ...body });
  }
  if (body.error === 'bad_request') return new RpcFault(RpcCode.invalidParams, `invalid params: ${typeof body.detail === 'string' ? body.detail : (body.detail?.message ?? 'bad request')}`, body);
  return new RpcFault(RpcCode.refused, `refused: ${body.error}`, body);
}
