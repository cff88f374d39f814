/**
 * The contract's request schemas as plain data, for a check that loads no zod (`checks.generated.ts`,
 * generated at build time by `render-checks.ts`, read by `args/quick-check.ts`). It is conservative in one
 * direction only: a value it passes may still be refused (by a refinement it cannot express: the service,
 * which runs the contract, has the last word), but one it fails is always re-checked by the contract itself.
 */
export type ValueCheck =
  /** Anything (a refinement-only, transformed, lazy or unusual schema: left to the contract). */
  | { readonly t: 'any' }
  /** `undefined` too (optional, defaulted), else `of`. */
  | { readonly t: 'opt'; readonly of: ValueCheck }
  /** `null` too, else `of`. */
  | { readonly t: 'nul'; readonly of: ValueCheck }
  | {
      readonly t: 'str';
      readonly min?: number;
      readonly max?: number;
      /** Patterns as `[source, flags]`. */
      readonly re?: readonly (readonly [string, string])[];
    }
  | {
      readonly t: 'num';
      readonly int?: true;
      /** Bounds: `ge`/`le` inclusive, `gt`/`lt` exclusive. */
      readonly ge?: number;
      readonly gt?: number;
      readonly le?: number;
      readonly lt?: number;
    }
  | { readonly t: 'bool' }
  | { readonly t: 'null' }
  /** One of these values (an enum or a literal). */
  | { readonly t: 'one'; readonly of: readonly (string | number | boolean | null)[] }
  | { readonly t: 'arr'; readonly of: ValueCheck; readonly min?: number; readonly max?: number }
  /** An object; keys not listed are let through (the contract is loose on input). */
  | { readonly t: 'obj'; readonly props: Readonly<Record<string, ValueCheck>> }
  | { readonly t: 'rec'; readonly of: ValueCheck }
  /** Passes when one option passes. */
  | { readonly t: 'or'; readonly of: readonly ValueCheck[] };

/** One operation's request: its path, query and body checks (absent when the part is absent). */
export interface OperationCheck {
  /** The query's parameter names (the rest go to the path or the body). */
  readonly queryKeys: readonly string[];
  readonly params?: ValueCheck;
  readonly query?: ValueCheck;
  readonly body?: ValueCheck;
}
