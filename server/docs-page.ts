/**
 * The reference page `GET /docs` (server/docs.ts serves it), rendered from the OpenAPI document: a
 * sidebar by section and, for each operation, method, path, scope, parameters, request body,
 * answers (the 409 refusal kinds among them), then the webhook events and the shared schemas. One
 * self-contained HTML file: inline style and script, no fonts, no CDN, no request beyond the page
 * itself ({@link PAGE_CSP} forbids any), so it works offline.
 */
import { createHash } from 'node:crypto';
import type { JsonSchema, OpenApiDocument, OpenApiOperation } from '../sdk/openapi.ts';
import { BASE_PATH } from '../sdk/contract/index.ts';

/** Where the server serves the OpenAPI document (server/docs.ts); the page links to it. */
export const OPENAPI_PATH = `${BASE_PATH.api}/openapi.json`;

const STYLE = `
:root { --fg: #1d2330; --muted: #5b6475; --line: #dde2ea; --bg: #fff; --side: #f5f7fa; --accent: #2456c8; --code: #f1f3f7; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code); padding: 1px 4px; border-radius: 3px; }
nav { position: fixed; top: 0; bottom: 0; left: 0; width: 300px; overflow-y: auto; background: var(--side); border-right: 1px solid var(--line); padding: 16px 12px 40px; }
nav h1 { font-size: 18px; margin: 0 0 2px; }
nav .version { color: var(--muted); font-size: 13px; margin-bottom: 12px; }
nav input { width: 100%; padding: 6px 8px; border: 1px solid var(--line); border-radius: 4px; font: inherit; margin-bottom: 8px; }
nav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 14px 0 4px; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav li a { display: flex; gap: 6px; align-items: baseline; padding: 2px 6px; border-radius: 4px; color: var(--fg); font-size: 13px; }
nav li a:hover { background: #e6ebf3; text-decoration: none; }
nav li a.current { background: #dbe5fb; }
nav li a code { background: none; padding: 0; }
main { margin-left: 300px; padding: 24px 40px 80px; max-width: 1100px; }
main > header h1 { margin-top: 0; }
section.tag { margin-top: 40px; }
section.tag > h2 { border-bottom: 2px solid var(--line); padding-bottom: 4px; }
article.op, article.schema { border: 1px solid var(--line); border-radius: 6px; padding: 12px 18px; margin: 18px 0; scroll-margin-top: 12px; }
article:target { border-color: var(--accent); box-shadow: 0 0 0 3px #c9d8fb; }
article h3 { margin: 0 0 6px; font-size: 17px; display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
article h3 .path { font-size: 15px; background: none; padding: 0; }
article h4 { margin: 14px 0 4px; font-size: 14px; }
.opid { color: var(--muted); font-size: 13px; }
.m { display: inline-block; min-width: 52px; text-align: center; font: 600 11px/1.8 ui-monospace, monospace; color: #fff; border-radius: 3px; padding: 0 4px; }
.m-get { background: #2f7d32; } .m-post { background: #2456c8; } .m-put { background: #a35b00; } .m-patch { background: #7a4bb7; } .m-delete { background: #b3261e; }
.facts { display: flex; flex-wrap: wrap; gap: 4px 18px; color: var(--muted); font-size: 13px; margin: 4px 0 8px; }
.facts b { color: var(--fg); font-weight: 600; }
table { border-collapse: collapse; width: 100%; font-size: 13px; margin: 4px 0; }
th, td { text-align: left; vertical-align: top; border-top: 1px solid var(--line); padding: 4px 8px 4px 0; }
th { color: var(--muted); font-weight: 600; border-top: none; }
td.name { white-space: nowrap; }
td p { margin: 0 0 2px; }
.req { color: #b3261e; font-size: 11px; margin-left: 4px; }
.type { color: #7a4bb7; font-family: ui-monospace, monospace; font-size: 12px; }
.nested { margin-left: 16px; border-left: 2px solid var(--line); padding-left: 8px; }
.status { font: 600 13px ui-monospace, monospace; padding: 0 6px; border-radius: 3px; background: var(--code); }
.status.ok { background: #dcefdc; } .status.err { background: #f8e0de; }
ul.kinds { margin: 4px 0; padding-left: 20px; }
.resp { margin: 8px 0 12px; }
.muted { color: var(--muted); }
.hidden { display: none !important; }
`;

const SCRIPT = `
(function () {
  var input = document.getElementById('filter');
  var links = Array.prototype.slice.call(document.querySelectorAll('nav li'));
  input.addEventListener('input', function () {
    var q = input.value.trim().toLowerCase();
    links.forEach(function (li) { li.classList.toggle('hidden', q !== '' && li.textContent.toLowerCase().indexOf(q) < 0); });
    document.querySelectorAll('nav .group').forEach(function (g) {
      g.classList.toggle('hidden', g.querySelectorAll('li:not(.hidden)').length === 0);
    });
  });
  function mark() {
    var id = decodeURIComponent(location.hash.slice(1));
    document.querySelectorAll('nav a.current').forEach(function (a) { a.classList.remove('current'); });
    var a = document.querySelector('nav a[data-target="' + (window.CSS && CSS.escape ? CSS.escape(id) : id) + '"]');
    if (a) a.classList.add('current');
  }
  window.addEventListener('hashchange', mark);
  mark();
})();
`;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');

/** Nothing but the page's own inline style and script; no fetch, no image, no font, no frame. */
export const PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${sha256(STYLE)}'`,
  `script-src 'sha256-${sha256(SCRIPT)}'`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const esc = (value: unknown): string =>
  String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The little Markdown the descriptions use: paragraphs, `- ` lists, `code`, **bold**. */
function markdown(text: string | undefined): string {
  if (!text) return '';
  const inline = (s: string) =>
    esc(s)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  return text
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.split('\n').filter((l) => l.trim() !== '');
      if (lines.length > 0 && lines.every((l) => l.startsWith('- '))) {
        return `<ul>${lines.map((l) => `<li>${inline(l.slice(2))}</li>`).join('')}</ul>`;
      }
      return `<p>${inline(lines.join(' '))}</p>`;
    })
    .join('');
}

const opAnchor = (id: string) => `op-${id}`;
const schemaAnchor = (name: string) => `schema-${name}`;
const eventAnchor = (kind: string) => `event-${kind}`;
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

type Components = OpenApiDocument['components'];

/** Follows a `$ref` into the components (parameters, responses, headers, schemas). */
function resolve<T extends JsonSchema>(components: Components, node: T | { $ref: string }): T {
  if (typeof node.$ref !== 'string') return node as T;
  const [, , kind, name] = node.$ref.split('/') as [string, string, keyof Components, string];
  const target = components[kind]?.[name];
  if (!target) throw new Error(`unresolved ${node.$ref}`);
  return target as T;
}

export function renderDocsPage(doc: OpenApiDocument): string {
  const c = doc.components;
  const byTag = new Map<string, { path: string; method: string; op: OpenApiOperation }[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags[0] ?? 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ path, method, op });
    }
  }
  const tagName = (name: string) => doc.tags.find((t) => t.name === name)?.['x-displayName'] ?? name;
  const apiTags = doc.tags.filter((t) => byTag.has(t.name));
  const webhookTag = doc.tags.find((t) => !byTag.has(t.name));

  const link = (target: string, label: string, title: string, method?: string) =>
    `<li><a href="#${esc(target)}" data-target="${esc(target)}" title="${esc(title)}">${method ? `<span class="m m-${method}">${method.toUpperCase()}</span>` : ''}<code>${esc(label)}</code></a></li>`;

  const nav = [
    `<h1>${esc(doc.info.title)}</h1><div class="version">version ${esc(doc.info.version)} · OpenAPI ${esc(doc.openapi)}</div>`,
    '<input id="filter" type="search" placeholder="Filter operations" aria-label="Filter operations" autocomplete="off">',
    ...apiTags.map(
      (t) =>
        `<div class="group"><h2>${esc(tagName(t.name))}</h2><ul>${byTag
          .get(t.name)!
          .map(({ op, method, path }) => link(opAnchor(op.operationId), op.operationId, `${method.toUpperCase()} ${path} — ${op.summary}`, method))
          .join('')}</ul></div>`,
    ),
    `<div class="group"><h2>${esc(webhookTag?.['x-displayName'] ?? 'Webhook events')}</h2><ul>${Object.keys(doc.webhooks)
      .map((kind) => link(eventAnchor(kind), kind, doc.webhooks[kind]!.post.summary))
      .join('')}</ul></div>`,
    `<div class="group"><h2>Schemas</h2><ul>${Object.keys(c.schemas)
      .map((name) => link(schemaAnchor(name), name, `schema ${name}`))
      .join('')}</ul></div>`,
  ].join('\n');

  const intro = `<header><h1>${esc(doc.info.title)} <span class="muted">v${esc(doc.info.version)}</span></h1>
<p class="facts"><span>Base URL <b><code>${esc(doc.servers[0]?.url ?? '')}</code></b></span><span>The document: <a href="${esc(OPENAPI_PATH)}"><code>${esc(OPENAPI_PATH)}</code></a></span><span>License <b>${esc(doc.info.license.name)}</b></span></p>
${markdown(doc.info.description)}
<h4>Authentication</h4>${markdown(String(c.securitySchemes.bearer?.description ?? ''))}</header>`;

  const sections = apiTags.map(
    (t) =>
      `<section class="tag" id="tag-${esc(t.name)}"><h2>${esc(tagName(t.name))}</h2>${markdown(t.description)}${byTag
        .get(t.name)!
        .map(({ path, method, op }) => renderOperation(c, path, method, op))
        .join('\n')}</section>`,
  );

  const events = `<section class="tag" id="tag-webhooks"><h2>${esc(webhookTag?.['x-displayName'] ?? 'Webhook events')}</h2>${markdown(webhookTag?.description)}${Object.entries(
    doc.webhooks,
  )
    .map(([kind, { post }]) => renderEvent(c, kind, post))
    .join('\n')}</section>`;

  const schemas = `<section class="tag" id="tag-schemas"><h2>Schemas</h2>${Object.entries(c.schemas)
    .map(([name, schema]) => `<article class="schema" id="${esc(schemaAnchor(name))}"><h3><code>${esc(name)}</code></h3>${schemaBlock(c, schema, 0)}</article>`)
    .join('\n')}</section>`;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} reference</title>
<style>${STYLE}</style>
</head>
<body>
<nav aria-label="Operations">
${nav}
</nav>
<main>
${intro}
${sections.join('\n')}
${events}
${schemas}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function renderOperation(c: Components, path: string, method: string, op: OpenApiOperation): string {
  const params = (op.parameters ?? []).map((p) => resolve(c, p));
  const scope = op['x-scope'];
  const facts = [
    `<span>Scope <b>${scope ? `<code>${esc(scope)}</code>` : 'any key with a scope'}</b></span>`,
    params.some((p) => p.name === 'Idempotency-Key') ? '<span><b>Idempotency-Key</b> required</span>' : '',
    op['x-paging'] ? `<span>Pages by <b>${esc(op['x-paging'])}</b></span>` : '',
  ].join('');
  const parts = [
    `<article class="op" id="${esc(opAnchor(op.operationId))}" data-method="${esc(method)}" data-path="${esc(path)}">`,
    `<h3><span class="m m-${esc(method)}">${esc(method.toUpperCase())}</span><code class="path">${esc(path)}</code><span class="opid">${esc(op.operationId)}</span></h3>`,
    `<div class="facts">${facts}</div>`,
    markdown(op.description),
  ];
  if (params.length > 0) {
    parts.push(
      `<h4>Parameters</h4><table class="params"><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr>${params
        .map(
          (p) =>
            `<tr><td class="name"><code>${esc(p.name)}</code>${p.required ? '<span class="req">required</span>' : ''}</td><td>${esc(p.in)}</td><td>${typeCell(c, p.schema as JsonSchema)}</td><td>${markdown(p.description as string)}${constraints(p.schema as JsonSchema)}</td></tr>`,
        )
        .join('')}</table>`,
    );
  }
  if (op.requestBody) parts.push(`<h4>Request body${op.requestBody.required ? '' : ' <span class="muted">(optional)</span>'}</h4>${contentBlock(c, op.requestBody)}`);
  parts.push('<h4>Answers</h4>');
  for (const [status, raw] of Object.entries(op.responses)) {
    const response = resolve(c, raw);
    const kinds = status === '409' ? (op['x-refusal-kinds'] ?? []) : [];
    parts.push(
      `<div class="resp" data-status="${esc(status)}"><span class="status ${status.startsWith('2') ? 'ok' : 'err'}">${esc(status)}</span> ${markdown(String(response.description ?? '')).replace(/^<p>|<\/p>$/g, '')}`,
    );
    if (kinds.length > 0) {
      parts.push(`<ul class="kinds">${kinds.map((k) => `<li><code class="kind">${esc(k)}</code></li>`).join('')}</ul>`);
      parts.push(`<div class="muted">Body: ${schemaLink('ErrorBody')} with <code>error: "rejected"</code> and <code>refusal.kind</code> one of the kinds above.</div>`);
    } else if (status.startsWith('2')) {
      parts.push(contentBlock(c, response, false));
    } else {
      parts.push(`<div class="muted">Body: ${schemaLink('ErrorBody')}</div>`);
    }
    parts.push('</div>');
  }
  parts.push('</article>');
  return parts.join('\n');
}

function renderEvent(c: Components, kind: string, op: OpenApiOperation): string {
  const headers = (op.parameters ?? []).map((p) => resolve(c, p));
  return [
    `<article class="op" id="${esc(eventAnchor(kind))}" data-method="post">`,
    `<h3><span class="m m-post">POST</span><code class="path">${esc(kind)}</code><span class="opid">to your subscribed address</span></h3>`,
    markdown(op.description),
    `<h4>Headers</h4><table><tr><th>Name</th><th>Type</th><th>Description</th></tr>${headers
      .map((h) => `<tr><td class="name"><code>${esc(h.name)}</code></td><td>${typeCell(c, h.schema as JsonSchema)}</td><td>${markdown(h.description as string)}${constraints(h.schema as JsonSchema)}</td></tr>`)
      .join('')}</table>`,
    `<h4>Body</h4>${op.requestBody ? contentBlock(c, op.requestBody) : ''}`,
    '</article>',
  ].join('\n');
}

function contentBlock(c: Components, holder: JsonSchema, withDescription = true): string {
  const out: string[] = [];
  if (withDescription && holder.description) out.push(markdown(String(holder.description)));
  const content = (holder.content ?? {}) as Record<string, { schema?: JsonSchema }>;
  for (const [type, media] of Object.entries(content)) {
    const schema = media.schema;
    const isJson = type === 'application/json';
    out.push(`<div class="muted"><code>${esc(type)}</code>${schema && !isJson ? ' — raw bytes' : ''}</div>`);
    if (schema && isJson) out.push(schemaBlock(c, schema, 0, true));
  }
  return out.join('\n');
}

const schemaLink = (name: string) => `<a href="#${esc(schemaAnchor(name))}"><code>${esc(name)}</code></a>`;

/** A one-line type: `string`, `integer | null`, `array of Order`, a link for a named schema. */
function typeCell(c: Components, s: JsonSchema | undefined): string {
  return `<span class="type">${typeText(c, s)}</span>`;
}

function typeText(c: Components, s: JsonSchema | undefined): string {
  if (!s || Object.keys(s).length === 0) return 'any';
  if (typeof s.$ref === 'string') return schemaLink(refName(s.$ref));
  if (s.const !== undefined) return esc(JSON.stringify(s.const));
  const union = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (union) return union.map((x) => typeText(c, x)).join(' | ');
  if (Array.isArray(s.allOf)) return (s.allOf as JsonSchema[]).map((x) => typeText(c, x)).join(' & ');
  if (Array.isArray(s.type)) return s.type.map((t) => (t === 'array' ? `array of ${typeText(c, s.items as JsonSchema)}` : esc(t))).join(' | ');
  if (s.type === 'array') return `array of ${typeText(c, s.items as JsonSchema)}`;
  if (s.type === 'object' && !s.properties && s.additionalProperties && typeof s.additionalProperties === 'object') {
    return `map of ${typeText(c, s.additionalProperties as JsonSchema)}`;
  }
  return esc(s.type ?? 'any');
}

/** Enum values, patterns and bounds of a schema (and of the non-null member of a nullable one). */
function constraints(s: JsonSchema | undefined): string {
  if (!s) return '';
  const union = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  const target = union ? union.find((x) => x.type !== 'null' && !x.$ref) : s;
  if (!target) return '';
  const out: string[] = [];
  if (Array.isArray(target.enum)) out.push(`one of ${target.enum.map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(', ')}`);
  if (typeof target.pattern === 'string') out.push(`pattern <code>${esc(target.pattern)}</code>`);
  const bound = (lo: unknown, loOpen: unknown, hi: unknown, hiOpen: unknown, what: string) => {
    if (lo !== undefined && hi !== undefined) return out.push(`${what} ${esc(lo)}–${esc(hi)}`);
    const parts = [
      lo !== undefined ? `≥ ${esc(lo)}` : loOpen !== undefined ? `> ${esc(loOpen)}` : '',
      hi !== undefined ? `≤ ${esc(hi)}` : hiOpen !== undefined ? `< ${esc(hiOpen)}` : '',
    ].filter(Boolean);
    if (parts.length > 0) out.push(`${what} ${parts.join(', ')}`);
  };
  bound(target.minimum, target.exclusiveMinimum, target.maximum, target.exclusiveMaximum, 'value');
  bound(target.minLength, undefined, target.maxLength, undefined, 'length');
  bound(target.minItems, undefined, target.maxItems, undefined, 'items');
  if (typeof target.contentMediaType === 'string') out.push(`<code>${esc(target.contentMediaType)}</code>`);
  return out.length > 0 ? `<div class="muted">${out.join('; ')}</div>` : '';
}

/** The object an (array of / nullable) schema holds, when it has fields to show. */
function innerObject(c: Components, s: JsonSchema | undefined, follow: boolean): JsonSchema | null {
  if (!s) return null;
  if (typeof s.$ref === 'string') return follow ? innerObject(c, resolve(c, s), false) : null;
  if (s.type === 'object' && s.properties) return s;
  if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) return innerObject(c, s.items as JsonSchema, false);
  const union = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (union) {
    const members = union.filter((x) => x.type !== 'null');
    if (members.length === 1) return innerObject(c, members[0], false);
  }
  return null;
}

/**
 * A schema as a table of fields, nested objects indented under their field. A named schema at the
 * top is shown with its fields (and a link); deeper named schemas are links.
 */
function schemaBlock(c: Components, s: JsonSchema, depth: number, followTop = false): string {
  if (typeof s.$ref === 'string') {
    const name = refName(s.$ref);
    const target = resolve(c, s);
    return `<div>${schemaLink(name)}</div>${followTop ? schemaBlock(c, target, depth) : ''}`;
  }
  const union = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (union && union.every((x) => innerObject(c, x, false))) {
    return union.map((x, i) => `<div class="muted">${i === 0 ? 'One of:' : 'or:'}</div>${schemaBlock(c, x, depth + 1)}`).join('');
  }
  const obj = innerObject(c, s, false);
  if (!obj) return `<div>${typeCell(c, s)}${constraints(s)}</div>`;
  const required = new Set((obj.required as string[] | undefined) ?? []);
  const rows = Object.entries(obj.properties as Record<string, JsonSchema>).map(([name, prop]) => {
    const inner = depth < 6 ? innerObject(c, prop, false) : null;
    const nested = inner ? `<div class="nested">${schemaBlock(c, inner, depth + 1)}</div>` : '';
    return `<tr><td class="name"><code>${esc(name)}</code>${required.has(name) ? '<span class="req">required</span>' : ''}</td><td>${typeCell(c, prop)}</td><td>${markdown(prop.description as string | undefined)}${constraints(prop)}${nested}</td></tr>`;
  });
  const prefix = s !== obj ? `<div>${typeCell(c, s)}</div>` : '';
  return `${prefix}<table class="fields"><tr><th>Field</th><th>Type</th><th></th></tr>${rows.join('')}</table>`;
}
