/**
 * Emits the SDK's public types as plain TypeScript (`src/client/types.generated.ts`): an interface for every
 * resource of the contract and for every operation's parameters, result and listed item, each field with the
 * description the contract gives it (shown when hovering in an editor). The client's methods are typed with
 * these names, so the compiler reads a few hundred interfaces instead of evaluating `z.infer` over the whole
 * contract: apps type-check in a fraction of the time and the declaration files stay small.
 */
import type { z } from 'zod';
import * as events from '../src/contract/events.js';
import { isOpenEnum, isSchema, type ZodDef, zodDef } from '../src/contract/introspect.js';
import type { AnyOperation } from '../src/contract/operation.js';
import * as schemas from '../src/contract/schemas/index.js';
import { QueryBoolean } from '../src/contract/zod-helpers.js';

/** `in`: what callers write (defaults optional); `out`: what the SDK returns (enums left open). */
type Mode = 'in' | 'out';

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

const enumKey = (d: ZodDef): string => JSON.stringify(Object.values(d.entries!).map(String).sort());

export const pascal = (s: string): string =>
  s.replace(/(^|[-_])(\w)/g, (_, __, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase());

/** A schema's description, looking through `.optional()`, `.default()` and the like. */
function describe(s: z.ZodType): string | undefined {
  for (let cur: z.ZodType | undefined = s; cur; cur = zodDef(cur).innerType) {
    if (cur.description) return cur.description;
    if (!WRAPPERS.has(zodDef(cur).type)) break;
  }
  return undefined;
}

function jsdoc(text: string | undefined, indent: string, tags: string[] = []): string[] {
  const lines = [...(text ? text.split('\n') : []), ...tags].map((l) => l.replaceAll('*/', '*\\/'));
  if (lines.length === 0) return [];
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`.trimEnd()), `${indent} */`];
}

const KEY = /^[A-Za-z_$][\w$]*$/;
const key = (k: string) => (KEY.test(k) ? k : JSON.stringify(k));

/** True when callers write what the SDK returns: nothing defaulted, transformed or coerced inside. */
function sameBothWays(s: z.ZodType, seen = new Set<z.ZodType>()): boolean {
  if (seen.has(s)) return true;
  seen.add(s);
  const d = zodDef(s);
  if (['default', 'prefault', 'pipe', 'transform', 'catch'].includes(d.type)) return false;
  if (d.type === 'enum' && isOpenEnum(s)) return false;
  if (zodDef(s).coerce) return false;
  const kids: (z.ZodType | undefined)[] = [d.innerType, d.element, d.valueType, d.left, d.right];
  if (d.type === 'object') kids.push(...Object.values((s as z.ZodObject).shape as Record<string, z.ZodType>));
  if (d.options) kids.push(...d.options);
  if (d.type === 'lazy') kids.push(d.getter!());
  return kids.every((k) => !k || sameBothWays(k, seen));
}

/** Names taken by the SDK's own classes: `WriteAction` is the handle, its data `WriteActionData`. */
const RENAMED: Record<string, string> = { WriteAction: 'WriteActionData' };

/** Named types the hand-written parts of the client use (webhook events, extraction jobs). */
const ALWAYS = ['EventType', 'TweetEventType', 'TweetEventData', 'ProfileEventData', 'ExtractionJob'];

export class TypeEmitter {
  /** Named schemas of the contract (`MonitorSchema` → `Monitor`). */
  readonly names = new Map<z.ZodType, string>();
  /** Emitted declarations, by name, in emission order. */
  readonly decls = new Map<string, string>();
  private readonly pending = new Set<string>();
  /** Named closed enums by their values: the same values elsewhere are written as the name. */
  private readonly enums = new Map<string, z.ZodType>();
  /**
   * Named schemas by definition: `TweetSchema.describe('…')` is a clone that shares the definition of
   * `TweetSchema`, so a field described at the point of use is still written as `Tweet`.
   */
  private readonly byDef = new Map<ZodDef, z.ZodType>();
  /**
   * Value lists of the contract (`EXTRACTION_TOOL_TYPES`) by their values: an enum of those values that the
   * types spell out more than once (`repeated`) is written as a named alias (`ExtractionToolType`).
   */
  private readonly lists = new Map<string, { alias: string; source: string }>();
  /** How many times each value list was spelled out, by its values (what `repeated` is chosen from). */
  readonly listUses = new Map<string, number>();

  constructor(private readonly repeated: ReadonlySet<string> = new Set()) {
    // Sorted: module namespaces list their exports in different orders under different loaders (tsx, vitest).
    const exports = Object.entries({ ...events, ...schemas }).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    for (const [exported, value] of exports) {
      if (!exported.endsWith('Schema') || !isSchema(value)) continue;
      const s = value as z.ZodType;
      const name = exported.slice(0, -'Schema'.length);
      if (!this.names.has(s)) this.names.set(s, RENAMED[name] ?? name);
      const d = zodDef(s);
      if (!this.byDef.has(d)) this.byDef.set(d, s);
      if (d.type === 'enum' && !isOpenEnum(s)) this.enums.set(enumKey(d), s);
    }
    for (const [exported, value] of exports) {
      // Long lists only: a short one spelled out weighs about what its alias and a reference to it do.
      if (!/^[A-Z][A-Z0-9_]*S$/.test(exported) || !Array.isArray(value) || value.length < 6) continue;
      if (!value.every((v) => typeof v === 'string')) continue;
      const alias = pascal(singular(exported).toLowerCase());
      const key = JSON.stringify([...value].sort());
      const source = exported in events ? exported : `schemas.${exported}`;
      if (!this.lists.has(key)) this.lists.set(key, { alias, source });
    }
  }

  /** The alias of an enum's values when they are a repeated value list of the contract, declared once. */
  private listAlias(d: ZodDef, values: string[]): string | undefined {
    const key = enumKey(d);
    const list = this.lists.get(key);
    if (!list) return undefined;
    this.listUses.set(key, (this.listUses.get(key) ?? 0) + 1);
    if (!this.repeated.has(key)) return undefined;
    if (!this.decls.has(list.alias)) {
      const doc = `A value of \`${list.source}\` (\`@xsvc/sdk/contract\`).`;
      this.decls.set(
        list.alias,
        [...jsdoc(doc, ''), `export type ${list.alias} = ${values.join(' | ')};`, ''].join('\n'),
      );
    }
    return list.alias;
  }

  /** Declares a named type (once) and answers its name. */
  private named(s: z.ZodType, name: string): string {
    if (this.decls.has(name) || this.pending.has(name)) return name;
    this.pending.add(name);
    this.decls.set(name, this.declaration(name, s, 'out', describe(s)));
    this.pending.delete(name);
    return name;
  }

  /** `export interface Name {…}` for an object, `export type Name = …` otherwise. */
  declaration(name: string, s: z.ZodType, mode: Mode, doc: string | undefined): string {
    const d = zodDef(s);
    const head = jsdoc(doc, '');
    if (d.type === 'object') {
      return [
        ...head,
        `export interface ${name} {`,
        ...this.fields(s as z.ZodObject, mode, '  '),
        '}',
        '',
      ].join('\n');
    }
    return [...head, `export type ${name} = ${this.expression(s, mode, '')};`, ''].join('\n');
  }

  /** The members of an object type, each with its description. */
  fields(
    s: z.ZodObject,
    mode: Mode,
    indent: string,
    opts: { valueMode?: Mode; deprecated?: Readonly<Record<string, string>> } = {},
  ): string[] {
    const out: string[] = [];
    for (const [k, v] of Object.entries(s.shape as Record<string, z.ZodType>)) {
      let t = v;
      let optional = false;
      let nullable = false;
      // Optionality as `mode` sees it; the value type as `valueMode` does (query strings: the parsed value).
      for (;;) {
        const d = zodDef(t);
        if (d.type === 'optional') optional = true;
        else if (d.type === 'default' || d.type === 'prefault') optional ||= mode === 'in';
        else if (d.type === 'nullable') nullable = true;
        else if (!WRAPPERS.has(d.type)) break;
        t = d.innerType!;
      }
      let type = this.type(t, opts.valueMode ?? mode, indent);
      if (nullable) type = `${paren(type)} | null`;
      const tags: string[] = [];
      const dep = opts.deprecated?.[k];
      if (dep !== undefined) tags.push(dep ? `@deprecated Use \`${dep}\` instead.` : '@deprecated');
      out.push(...jsdoc(describe(v), indent, tags));
      out.push(`${indent}${key(k)}${optional ? '?' : ''}: ${type}${optional ? ' | undefined' : ''};`);
    }
    return out;
  }

  /** A type expression for a schema: its name when it has one. */
  type(s: z.ZodType, mode: Mode, indent: string): string {
    const base = this.names.has(s) ? s : this.byDef.get(zodDef(s));
    const name = base && this.names.get(base);
    if (base && name && (mode === 'out' || sameBothWays(base))) return this.named(base, name);
    return this.expression(s, mode, indent);
  }

  /** A type expression for a schema, spelled out. */
  expression(s: z.ZodType, mode: Mode, indent: string): string {
    const d = zodDef(s);
    switch (d.type) {
      case 'string':
        return 'string';
      case 'number':
      case 'int':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'bigint':
        return 'bigint';
      case 'null':
        return 'null';
      case 'undefined':
        return 'undefined';
      case 'void':
        return 'void';
      case 'date':
        return 'Date';
      case 'file':
        return 'Blob';
      case 'any':
      case 'unknown':
        return 'unknown';
      case 'never':
        return 'never';
      case 'literal':
        return d.values!.map((v) => JSON.stringify(v)).join(' | ');
      case 'enum': {
        const same = this.enums.get(enumKey(d));
        if (same && same !== s && Object.keys(d.entries!).length > 2) {
          const open = mode === 'out' && isOpenEnum(s);
          return `${this.type(same, 'out', indent)}${open ? ' | (string & {})' : ''}`;
        }
        const values = Object.values(d.entries!).map((v) => JSON.stringify(v));
        const alias = this.listAlias(d, values);
        if (alias) values.splice(0, values.length, alias);
        if (mode === 'out' && isOpenEnum(s)) values.push('(string & {})');
        return values.join(' | ');
      }
      case 'optional':
        return `${paren(this.type(d.innerType!, mode, indent))} | undefined`;
      case 'nullable':
        return `${paren(this.type(d.innerType!, mode, indent))} | null`;
      case 'default':
      case 'prefault':
      case 'catch':
      case 'readonly':
      case 'nonoptional':
        return this.type(d.innerType!, mode, indent);
      case 'array':
        return `${paren(this.type(d.element!, mode, indent))}[]`;
      case 'record':
        return `Record<${this.type(d.keyType!, mode, indent)}, ${this.type(d.valueType!, mode, indent)}>`;
      case 'object': {
        const body = this.fields(s as z.ZodObject, mode, `${indent}  `);
        return body.length ? `{\n${body.join('\n')}\n${indent}}` : 'Record<string, never>';
      }
      case 'union': {
        const parts = [...new Set(d.options!.map((o) => this.type(o, mode, indent)))];
        if (parts.includes('unknown')) return 'unknown';
        return parts.map(paren).join(' | ');
      }
      case 'intersection':
        return `${paren(this.type(d.left!, mode, indent))} & ${paren(this.type(d.right!, mode, indent))}`;
      case 'lazy':
        return this.type(d.getter!(), mode, indent);
      case 'pipe': {
        if (mode === 'in') return this.type(d.in!, mode, indent);
        if (zodDef(d.out!).type !== 'transform') return this.type(d.out!, mode, indent);
        // A transform's result is only known to the compiler; the contract's few are listed here.
        if ((zodDef(QueryBoolean).options ?? []).includes(s)) return 'boolean';
        throw new Error(`no TypeScript type for a transform: ${JSON.stringify(describe(s) ?? '')}`);
      }
      default:
        throw new Error(`no TypeScript type for a zod ${d.type}`);
    }
  }
}

/** `EXTRACTION_TOOL_TYPES` → `EXTRACTION_TOOL_TYPE`, `STATUSES` → `STATUS`: the name of one value of a list. */
function singular(name: string): string {
  if (name.endsWith('IES')) return `${name.slice(0, -3)}Y`;
  return /(SS|US|X|CH|SH)ES$/.test(name) ? name.slice(0, -2) : name.slice(0, -1);
}

/** Wraps a union or function type in parentheses, for `T[]` and `T | null`. */
function paren(t: string): string {
  if (t.startsWith('{') || /^[\w.$<>, ]+$/.test(t) || /^"[^"]*"$/.test(t)) return t;
  return `(${t})`;
}

/** The names an operation's types go by: `searchTweets` → `SearchTweetsParams`, `SearchTweetsResult`. */
export function typeNames(op: AnyOperation): { params: string; result: string; item: string } {
  const base = pascal(op.id);
  return { params: `${base}Params`, result: `${base}Result`, item: `${base}Item` };
}

/** What an operation's method takes, returns and lists, by type name (or type expression). */
export interface OperationTypes {
  params: string | undefined;
  result: string;
  item: string;
}

/** Renders `types.generated.ts`: every resource and every operation's types, and the `Operations` map. */
export function renderTypes(
  ops: readonly AnyOperation[],
  header: string,
): {
  text: string;
  byOp: Map<string, OperationTypes>;
} {
  // Twice: the first pass counts the value lists spelled out, the second names those spelled out again.
  const first = render(ops, header, new Set());
  const repeated = new Set([...first.listUses].filter(([, n]) => n > 1).map(([key]) => key));
  const { text, byOp } = render(ops, header, repeated);
  return { text, byOp };
}

function render(
  ops: readonly AnyOperation[],
  header: string,
  repeated: ReadonlySet<string>,
): {
  text: string;
  byOp: Map<string, OperationTypes>;
  listUses: ReadonlyMap<string, number>;
} {
  const e = new TypeEmitter(repeated);
  const groups = fieldGroups();
  const byOp = new Map<string, OperationTypes>();
  const opDecls: string[] = [];
  const taken = new Set(e.names.values());
  const claim = (n: string, op: AnyOperation) => {
    if (taken.has(n)) throw new Error(`${op.id}: the type name ${n} is taken (rename in generate-types.ts)`);
    taken.add(n);
  };
  for (const g of groups) {
    if (taken.has(g.name)) throw new Error(`the shared parameter set ${g.name} has the name of a resource`);
    taken.add(g.name);
  }
  /** A shared set's interface; a set made of smaller sets extends them. */
  const declareGroup = (g: FieldGroup): void => {
    const own = { ...g.shape };
    const parts: string[] = [];
    for (const sub of groups.slice(groups.indexOf(g) + 1)) {
      const entries = Object.entries(sub.shape);
      if (!entries.every(([k, v]) => own[k] === v)) continue;
      for (const [k] of entries) delete own[k];
      if (!e.decls.has(sub.name)) declareGroup(sub);
      parts.push(sub.name);
    }
    const body = e.fields({ shape: own } as unknown as z.ZodObject, 'in', '  ', { valueMode: 'out' });
    const ext = parts.length ? ` extends ${parts.join(', ')}` : '';
    e.decls.set(
      g.name,
      [...jsdoc(g.doc, ''), `export interface ${g.name}${ext} {`, ...body, '}', ''].join('\n'),
    );
  };
  const bodies = new Map<z.ZodType, number>();
  for (const op of ops) if (op.body) bodies.set(op.body, (bodies.get(op.body) ?? 0) + 1);
  /** Named object bodies taken by more than one operation. */
  const shared = new Set(
    [...bodies].filter(([b, n]) => n > 1 && e.names.has(b) && zodDef(b).type === 'object').map(([b]) => b),
  );
  for (const op of ops) {
    const names = typeNames(op);
    let params: string | undefined;
    if (op.query || op.body) {
      claim(names.params, op);
      params = names.params;
      const doc = `Parameters of \`${op.sdk.join('.')}\`: ${lowerFirst(op.summary)}.`;
      const dep = op.deprecated?.params;
      const bases: string[] = [];
      const rest = (shape: Record<string, z.ZodType>, query: boolean) => {
        const left = { ...shape };
        for (const g of groups) {
          if (!query && !g.sameBothWays) continue;
          const entries = Object.entries(g.shape);
          if (!entries.every(([k, v]) => left[k] === v)) continue;
          for (const [k] of entries) delete left[k];
          if (!e.decls.has(g.name)) declareGroup(g);
          bases.push(g.name);
        }
        return { shape: left } as unknown as z.ZodObject;
      };
      const queryFields = op.query
        ? e.fields(rest(op.query.shape, true), 'in', '  ', {
            valueMode: 'out',
            ...(dep && { deprecated: dep }),
          })
        : [];
      const body = op.body;
      // A named body that several operations take, written as callers write it: one interface they extend.
      const sharedBody =
        body && !dep && shared.has(body) && sameBothWays(body) ? e.type(body, 'in', '') : undefined;
      if (sharedBody) bases.push(sharedBody);
      if (!body || zodDef(body).type === 'object') {
        const bodyFields =
          body && !sharedBody
            ? e.fields(rest((body as z.ZodObject).shape, false), 'in', '  ', dep ? { deprecated: dep } : {})
            : [];
        const ext = bases.length ? ` extends ${[...new Set(bases)].join(', ')}` : '';
        opDecls.push(
          [
            ...jsdoc(doc, ''),
            `export interface ${params}${ext} {`,
            ...queryFields,
            ...bodyFields,
            '}',
            '',
          ].join('\n'),
        );
      } else {
        const union = e.type(body, 'in', '');
        const q = queryFields.length ? `{\n${queryFields.join('\n')}\n} & ` : '';
        opDecls.push([...jsdoc(doc, ''), `export type ${params} = ${q}${paren(union)};`, ''].join('\n'));
      }
    }
    let result: string;
    const named = e.names.get(op.response);
    if (named) {
      result = e.type(op.response, 'out', '');
    } else {
      claim(names.result, op);
      result = names.result;
      opDecls.push(e.declaration(result, op.response, 'out', `What \`${op.sdk.join('.')}\` answers.`));
    }
    let item = 'unknown';
    if (op.items) {
      const field = zodDef(op.response).shape?.[op.items] ?? (op.response as z.ZodObject).shape?.[op.items];
      let el = field;
      while (el && WRAPPERS.has(zodDef(el).type)) el = zodDef(el).innerType;
      if (!el || zodDef(el).type !== 'array')
        throw new Error(`${op.id}: items field ${op.items} is not an array`);
      const element = zodDef(el).element!;
      if (e.names.has(element)) item = e.type(element, 'out', '');
      else {
        claim(names.item, op);
        item = names.item;
        opDecls.push(e.declaration(item, element, 'out', `One item listed by \`${op.sdk.join('.')}\`.`));
      }
    }
    byOp.set(op.id, { params, result, item });
  }
  const map = ["/** Every operation's types, by operation id (see `Params`, `Output` and `Item`). */"];
  map.push('export interface Operations {');
  for (const op of ops) {
    const t = byOp.get(op.id)!;
    map.push(`  ${op.id}: [params: ${t.params ?? '{}'}, result: ${t.result}, item: ${t.item}];`);
  }
  map.push('}', '');
  // Named types the hand-written client refers to, beside those the operations reach.
  for (const [s, name] of e.names) if (ALWAYS.includes(name)) e.type(s, 'out', '');
  const text = [header, ...e.decls.values(), ...opDecls, ...map].join('\n');
  return { text, byOp, listUses: e.listUses };
}

interface FieldGroup {
  name: string;
  doc: string;
  shape: Record<string, z.ZodType>;
  sameBothWays: boolean;
}

/**
 * The contract's shared parameter sets (`tweetFilterQuery`, `timeWindowQuery`, `writeAccountBody`…: plain
 * objects of fields found in many operations), as base interfaces: `SearchTweetsParams extends
 * TweetFilterParams`. Each field's doc is then written once, not once per operation. Larger sets first, so the
 * union of two sets wins over both.
 */
function fieldGroups(): FieldGroup[] {
  return Object.entries(schemas)
    .filter(([n, v]) => /^[a-z]\w*(Query|Body)$/.test(n) && typeof v === 'object' && v && !isSchema(v))
    .filter(([, v]) => Object.values(v as object).every(isSchema))
    .map(([n, v]) => {
      const shape = v as Record<string, z.ZodType>;
      const name = pascal(n).replace(/(Query|Body)$/, 'Params');
      const count = Object.keys(shape).length;
      return {
        name,
        doc: `Parameters shared by several methods (${count} field${count === 1 ? '' : 's'}).`,
        shape,
        sameBothWays: Object.values(shape).every((f) => sameBothWays(f)),
      };
    })
    .sort((a, b) => Object.keys(b.shape).length - Object.keys(a.shape).length || (a.name < b.name ? -1 : 1));
}

function lowerFirst(s: string): string {
  return s.replace(/^[A-Z](?![A-Z])/, (c) => c.toLowerCase());
}
