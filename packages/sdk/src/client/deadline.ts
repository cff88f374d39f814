/**
 * How calls are kept inside their deadlines: the abort controllers, reused from one call to the next on
 * Node, and one timer shared by every attempt in flight (below).
 *
 * Every attempt passes `fetch` a signal that its deadline timer aborts. On Node 20 creating an
 * `AbortSignal` is the single dearest step of a call (about 6 µs: the signal is an `EventTarget` whose
 * prototype is swapped, which V8 turns into a slow object, and collecting them shows in the GC), more than
 * the SDK's own work on the request. A signal that was never aborted is as good as new once nothing listens
 * to it any more, so a finished call hands its controller back here and the next call takes it.
 *
 * What listens to it after the call: Node's fetch (undici) adds an `abort` listener for every request and
 * only removes it when the signal aborts or the request is collected. A controller is therefore taken back
 * only where `events.getEventListeners` (Node's documented way to list an `EventTarget`'s listeners) can
 * list those listeners, they are all removed, and none is left; anywhere else (Bun, Deno, browsers, edge
 * runtimes, Node before 20.16 without `process.getBuiltinModule`) each call gets a controller of its own,
 * as before. No library does this (the peers create a controller per call), hence this small module.
 */

type ListenersOf = (target: EventTarget, type: string) => ((...args: unknown[]) => unknown)[];

/** Controllers ready for a call: never aborted, no listener left. Bounded (the concurrency seen, at most). */
const free: AbortController[] = [];
const MAX_FREE = 32;

/** `events.getEventListeners` on Node proper; null where controllers are not reused; undefined until read. */
let listenersOf: ListenersOf | null | undefined;

function readListenersOf(): ListenersOf | null {
  const p = (
    globalThis as {
      process?: {
        versions?: Record<string, string | undefined>;
        getBuiltinModule?: (id: string) => unknown;
      };
    }
  ).process;
  const v = p?.versions;
  // Bun and Deno answer `process.versions.node` too, but their fetch does not listen through the
  // `EventTarget` API, so an empty listener list would prove nothing there.
  if (!v?.node || v.bun || v.deno || typeof p?.getBuiltinModule !== 'function') return null;
  try {
    const events = p.getBuiltinModule('node:events') as { getEventListeners?: unknown } | undefined;
    return typeof events?.getEventListeners === 'function' ? (events.getEventListeners as ListenersOf) : null;
  } catch {
    return null;
  }
}

/** A controller for one attempt's deadline: a reused one when one is free, else a new one. */
export function takeController(): AbortController {
  return free.pop() ?? new AbortController();
}

/**
 * Hands back the controller of an attempt that is over (its answer read, its timer cleared). It is kept for
 * the next call only when it was never aborted and every listener could be removed; otherwise it is dropped.
 * Never call this for a controller whose signal something may still need (a body left for the caller to read,
 * a signal that follows the caller's).
 */
export function releaseController(controller: AbortController): void {
  if (free.length >= MAX_FREE) return;
  listenersOf ??= readListenersOf();
  if (listenersOf === null) return;
  const signal = controller.signal;
  if (signal.aborted || signal.onabort !== null) return;
  let listeners = listenersOf(signal, 'abort');
  if (listeners.length > 0) {
    for (const l of listeners) signal.removeEventListener('abort', l);
    // One added with `capture: true` is only removed by a matching call; drop the controller instead.
    listeners = listenersOf(signal, 'abort');
    if (listeners.length > 0) return;
  }
  free.push(controller);
}

/**
 * One attempt's deadline: at `at` (a `Date.now()` time) its controller is aborted with `reason()`. Every
 * watched deadline shares one timer, armed for the earliest of them (see {@link watchDeadline}).
 */
export class Deadline {
  constructor(
    readonly at: number,
    readonly controller: AbortController,
    readonly reason: () => unknown,
  ) {}
}

/**
 * The deadlines of the attempts in flight, and the one timer that aborts them. A timer per attempt costs
 * Node a timer list created and dropped at every sequential call (about 1 µs of a 3 µs call path with a
 * fetch that answers at once); here an attempt is one entry of a set. The timer stays armed (and ref'd)
 * while a deadline is watched, keeping the process alive as a per-attempt timer would; once none is, it is
 * unref'd where the runtime can (Node, Bun) and fires once for nothing, or cleared where it cannot (Deno,
 * browsers).
 */
const watched = new Set<Deadline>();
const MAX_DELAY = 2_147_483_647;
let timer: ReturnType<typeof setTimeout> | undefined;
let timerAt = Number.POSITIVE_INFINITY;
/** The `setTimeout` / `clearTimeout` the timer was armed with: fake timers installed since arm a new one. */
let armedWith: typeof setTimeout | undefined;
let clearWith: typeof clearTimeout | undefined;

/** Starts watching an attempt's deadline. */
export function watchDeadline(d: Deadline): void {
  watched.add(d);
  if (timer === undefined || d.at < timerAt || globalThis.setTimeout !== armedWith) arm(d.at);
  else if (watched.size === 1) (timer as { ref?: () => unknown }).ref?.();
}

/** Stops watching an attempt's deadline (its answer came, or it failed). */
export function unwatchDeadline(d: Deadline): void {
  watched.delete(d);
  if (watched.size > 0 || timer === undefined) return;
  const t = timer as { unref?: () => unknown };
  if (typeof t.unref === 'function') t.unref();
  else {
    clearWith?.(timer);
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
  }
}

function arm(at: number): void {
  if (timer !== undefined) clearWith?.(timer);
  armedWith = globalThis.setTimeout;
  clearWith = globalThis.clearTimeout;
  timerAt = at;
  // Clamped to what timers take (a longer delay fires at once); past that, it fires and arms again.
  timer = armedWith(expire, Math.min(MAX_DELAY, Math.max(0, at - Date.now())));
}

function expire(): void {
  timer = undefined;
  timerAt = Number.POSITIVE_INFINITY;
  const now = Date.now();
  let next = Number.POSITIVE_INFINITY;
  for (const d of watched) {
    if (d.at <= now) {
      watched.delete(d);
      d.controller.abort(d.reason());
    } else if (d.at < next) next = d.at;
  }
  if (next !== Number.POSITIVE_INFINITY && timer === undefined) arm(next);
}
