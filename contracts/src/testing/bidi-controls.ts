/**
 * The twelve bidirectional controls the issue names (UAX #9: embeddings and overrides, isolates,
 * marks), listed one by one for tests: written out independently of `BIDI_CONTROLS` in
 * `../text.ts`, so a character dropped from that pattern fails a test instead of leaving it.
 */
export const BIDI_CONTROL_CHARACTERS = [
  "\u202A",
  "\u202B",
  "\u202C",
  "\u202D",
  "\u202E",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u200E",
  "\u200F",
  "\u061C",
] as const;
