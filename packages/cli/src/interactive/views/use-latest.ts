import { useRef } from 'react';

/**
 * A ref that always holds the value of the last render. Ink re-subscribes input handlers in an effect,
 * after the frame is drawn, so a key pressed right after a render can reach the previous handler: handlers
 * read state through this instead of their closure.
 */
export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}
