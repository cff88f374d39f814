import type { CallParams, Transport } from './core.js';
import { fetchPage, PagePromise } from './pagination.js';
import type { RequestOptions, Route } from './types.js';
import type { WriteActionData } from './write-action.js';
import { WriteAction } from './write-action.js';

/** Base of every generated resource: the four ways an operation answers. */
export class Resource {
  constructor(protected readonly _t: Transport) {}

  /** A plain JSON call. */
  protected _call<T>(route: Route, params: CallParams, options?: RequestOptions): Promise<T> {
    return this._t.call<T>(route, params, options).then((r) => r.data);
  }

  /** A paginated call: a page that is also an async iterable over every item. */
  protected _list<Item, Body>(
    route: Route,
    params: CallParams,
    options?: RequestOptions,
  ): PagePromise<Item, Body> {
    return PagePromise.from(() => fetchPage<Item, Body>(this._t, route, params, options ?? {}, undefined));
  }

  /** A durable write: a handle that is terminal already (200) or can be waited on (202). */
  protected _write(route: Route, params: CallParams, options?: RequestOptions): Promise<WriteAction> {
    return this._t
      .call<WriteActionData>(route, params, options)
      .then((r) => new WriteAction(this._t, r.data, r.headers));
  }

  /** A binary answer (exports, attachments): the raw `Response`, its body unread, to stream or save. */
  protected _binary(route: Route, params: CallParams, options?: RequestOptions): Promise<Response> {
    return this._t.call<undefined>(route, params, options).then((r) => r.response);
  }
}
