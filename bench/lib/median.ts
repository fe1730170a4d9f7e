/** The middle value (the upper one of an even count), as every bench reports its rounds. */
export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
