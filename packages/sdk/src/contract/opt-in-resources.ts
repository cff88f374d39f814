/**
 * The recognised resources of the opt-in contract (`svc-api-contract: 2026-04-29`, spec 4.1): under it each
 * carries an `object` field naming its kind, and its id (and the ids of the resources it points at) carry the
 * kind's prefix (`mon_…`, `evt_…`). Paths accept the prefixed ids under the opt-in contract; the server
 * strips the prefix before it reads the id, so an id is the same resource in both contracts.
 */

/** One kind of resource: its `object` name, its id prefix, and where answers hold it. */
export interface ResourceKind {
  readonly object: string;
  readonly prefix: string;
  /** The API paths (after `/api/v1`) whose answers and `{id}` are this kind. */
  readonly path: RegExp;
  /** The field of a list answer holding these resources. */
  readonly list: string;
  /** A field of an answer holding one of them (besides the answer itself). */
  readonly single?: string;
}

/** Every recognised resource kind, the more specific paths first. */
export const RESOURCE_KINDS: readonly ResourceKind[] = [
  { object: 'keyword_monitor', prefix: 'kwm_', path: /^\/monitors\/keywords(\/|$)/, list: 'monitors' },
  { object: 'monitor', prefix: 'mon_', path: /^\/monitors(\/|$)/, list: 'monitors' },
  { object: 'event', prefix: 'evt_', path: /^\/events(\/|$)/, list: 'events' },
  { object: 'webhook_delivery', prefix: 'dlv_', path: /^\/webhooks\/[^/]+\/deliveries$/, list: 'deliveries' },
  { object: 'webhook', prefix: 'wh_', path: /^\/webhooks(\/|$)/, list: 'webhooks' },
  // A draw commitment is not a draw: its id is passed back as a body field (`commitmentId`), unprefixed.
  { object: 'draw', prefix: 'drw_', path: /^\/draws(?!\/commitments)(\/|$)/, list: 'draws', single: 'draw' },
  { object: 'extraction', prefix: 'ext_', path: /^\/extractions(\/|$)/, list: 'extractions', single: 'job' },
  { object: 'api_key', prefix: 'key_', path: /^\/api-keys(\/|$)/, list: 'keys' },
  {
    object: 'x_account',
    prefix: 'xacct_',
    path: /^\/x\/accounts(\/|$)/,
    list: 'accounts',
    single: 'account',
  },
];

/** Fields that point at another resource, with that resource's prefix. */
const REFERENCES: Readonly<Record<string, string>> = {
  monitorId: 'mon_',
  keywordMonitorId: 'kwm_',
  webhookId: 'wh_',
  streamEventId: 'evt_',
  drawId: 'drw_',
  extractionId: 'ext_',
};

const VERSION_PREFIX = /^\/api\/v1/;

/** The resource kind of an API path (`/api/v1/monitors/{id}` → monitor), if any. */
export function resourceKindOf(path: string): ResourceKind | undefined {
  const p = path.replace(VERSION_PREFIX, '');
  return RESOURCE_KINDS.find((k) => k.path.test(p));
}

function prefixed(prefix: string, id: unknown): unknown {
  return typeof id === 'string' && id !== '' && !id.startsWith(prefix) ? `${prefix}${id}` : id;
}

function decorate(kind: ResourceKind, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const o = value as Record<string, unknown>;
  if (typeof o.id !== 'string') return value;
  const out: Record<string, unknown> = { object: kind.object };
  for (const [k, v] of Object.entries(o)) {
    if (k === 'object') continue;
    const ref = REFERENCES[k];
    out[k] = k === 'id' ? prefixed(kind.prefix, v) : ref ? prefixed(ref, v) : v;
  }
  return out;
}

/**
 * A default-contract answer of `path` with its resources marked for the opt-in contract: the answer itself
 * when it is one (it has an `id`), each item of its list field, and its single-resource field; references
 * to other resources get their prefix too. Answers of other paths come back as they are.
 */
export function markResources(path: string, body: unknown): unknown {
  const kind = resourceKindOf(path);
  if (!kind || !body || typeof body !== 'object' || Array.isArray(body)) return body;
  const o = body as Record<string, unknown>;
  if (typeof o.id === 'string') return decorate(kind, o);
  const out: Record<string, unknown> = { ...o };
  const list = o[kind.list];
  if (Array.isArray(list)) out[kind.list] = list.map((item) => decorate(kind, item));
  if (kind.single && o[kind.single]) out[kind.single] = decorate(kind, o[kind.single]);
  return out;
}

/**
 * A path or query id as the server reads it: the opt-in prefix of `path`'s kind (or of the referenced kind,
 * for `monitorId`-style parameters) removed. Ids without the prefix are left as they are.
 */
export function unprefixedId(path: string, param: string, id: string): string {
  // The kind of `{id}` is the one of the path up to it (`/webhooks/{id}/deliveries`: a webhook).
  const at = path.indexOf('{id}');
  const prefix =
    param === 'id' ? resourceKindOf(at < 0 ? path : path.slice(0, at + 4))?.prefix : REFERENCES[param];
  return prefix && id.startsWith(prefix) ? id.slice(prefix.length) : id;
}
