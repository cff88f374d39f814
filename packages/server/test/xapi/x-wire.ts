import type { Schemas } from '@xdevplatform/xdk';

/**
 * X's response objects as they travel, typed from X's official SDK (`@xdevplatform/xdk`): the SDK's types
 * carry camelCased keys (its client transforms answers), X sends snake_case, so {@link Wire} turns the keys
 * back. Fixtures declared `satisfies XWirePost` (…) are held to X's own response shapes: a key X does not
 * send fails to compile.
 */

/** `referencedPosts` → `referenced_posts`. */
type Snake<S extends string> = S extends `${infer H}${infer R}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<R>}`
  : S;

/** `T` with every key in X's wire spelling, all the way down. */
export type Wire<T> = T extends readonly (infer U)[]
  ? Wire<U>[]
  : T extends object
    ? { [K in keyof T as K extends string ? Snake<K> : K]: Wire<T[K]> }
    : T;

export type XWirePost = Wire<Schemas.Post>;
export type XWireUser = Wire<Schemas.User>;
export type XWireMedia = Wire<Schemas.Media>;
export type XWirePoll = Wire<Schemas.Poll>;
export type XWireList = Wire<Schemas.List>;
export type XWireCommunity = Wire<Schemas.Community>;
export type XWireIncludes = Wire<Schemas.Expansions>;
export type XWireProblem = Wire<Schemas.Problem>;
