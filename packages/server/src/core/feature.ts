import type { FastifyInstance } from 'fastify';
import type { SealedColumn } from './crypto/reseal.js';
import type { Database } from './db/schema.js';
import type { ErrorShaper } from './http/error-handler.js';
import type { HandlerMap } from './http/handler.js';
import type { Ports } from './ports.js';
import type { Services } from './services.js';

/** Mounts plain routes and hooks that are not contract operations (control endpoints, sign-in, pages, docs). */
export type RouteRegistrar = (app: FastifyInstance, services: Services) => void | Promise<void>;

/**
 * One area of the server (`features/<area>/feature.ts`): the contract operations it answers, the plain
 * routes and hooks it mounts, what it offers other features through {@link Ports}, its own error formats
 * and the tables it owns. The app registers one list of features; a feature imports only `core/`,
 * `platform/` and the contract, never another feature (the dependency rule of `pnpm lint`).
 */
export interface Feature {
  /** The area's name: its folder under `features/`. */
  readonly name: string;
  /** Handlers of contract operations, by operation id. */
  readonly handlers?: HandlerMap;
  /** Plain routes and hooks; mounted before every feature's operations, in the order of the feature list. */
  readonly routes?: RouteRegistrar;
  /** What this feature provides to the others. */
  readonly ports?: (services: Services) => Partial<Ports>;
  /** The feature's own error formats for some of its routes. */
  readonly errorShapers?: readonly ErrorShaper[];
  /**
   * The job kinds (`core/jobs`) whose jobs this feature owns: the kinds it registers on `services.jobs` when
   * its routes mount, and kinds whose jobs it only leases. The app checks that every registered kind is
   * declared by exactly one feature.
   */
  readonly jobs?: readonly string[];
  /** The tables this feature owns: only its repositories write them. */
  readonly tables?: readonly (keyof Database)[];
  /**
   * The columns of its tables that hold secrets sealed at rest (`core/crypto`): sealed at start when an
   * older server stored them in clear, and sealed again under a new key in a rotation.
   */
  readonly sealedColumns?: readonly SealedColumn[];
}

/** Declares a feature (see {@link Feature}); the name must be a folder-style name. */
export function defineFeature<const F extends Feature>(feature: F): F {
  if (!/^[a-z][a-z-]*$/.test(feature.name))
    throw new Error(`feature name ${feature.name}: lower-case words and dashes`);
  return Object.freeze(feature);
}
