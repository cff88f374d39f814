/** The part of `@michaelhomer/jqjs` (a pure-JavaScript jq, no types of its own) the CLI uses. */
declare module '@michaelhomer/jqjs' {
  /** Compiles a jq program; throws (a string) on a syntax error. The result yields every output. */
  export function compile(program: string): (input: unknown) => Iterable<unknown>;
}
