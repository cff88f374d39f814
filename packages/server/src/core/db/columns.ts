/**
 * Column types shared by the table types of every part (`tables.ts` next to the code that owns the
 * tables). Integers that can grow (credits, counters, times in epoch ms) are int8 columns read as BigInt
 * on both engines; booleans are 0/1 integers; JSON is text.
 */

/** An int8 column: read as BigInt, written as a number or a BigInt. */
export type Int = bigint | number;
