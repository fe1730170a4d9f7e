/**
 * Letters and digits that read as a Latin letter of "flowstate" (Unicode's confusables, the ones
 * that matter for this one word, plus leetspeak). Applied after NFKC (fullwidth and compatibility
 * forms) and after diacritics are stripped, so "Ｆｌｏｗｓｔａｔｅ" and "Flöwstäte" are covered by those.
 */
const LOOKALIKES: Record<string, string> = {
  // Cyrillic
  а: "a",
  е: "e",
  о: "o",
  с: "c",
  ѕ: "s",
  т: "t",
  і: "l",
  ӏ: "l",
  ԝ: "w",
  ѡ: "w",
  // Greek
  α: "a",
  ε: "e",
  ο: "o",
  τ: "t",
  ι: "l",
  ω: "w",
  // digits and signs
  "0": "o",
  "1": "l",
  "|": "l",
  "3": "e",
  "4": "a",
  "@": "a",
  "5": "s",
  $: "s",
  "7": "t",
  // a capital I reads as l in many fonts
  i: "l",
};

/** What a name reads as: lower-case Latin letters only, lookalikes replaced. */
export function readsAs(name: string): string {
  const folded = name.normalize("NFKC").normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  let out = "";
  for (const ch of folded) out += LOOKALIKES[ch] ?? ch;
  // Whitespace, punctuation, invisible characters: "F l o w-s t a t e" reads as one word. "vv" reads as "w".
  return out.replace(/[^a-z]/g, "").replaceAll("vv", "w");
}

/**
 * True when a client name would pass for Flowstate itself on the consent page ("Flowstate wants to
 * use your Flowstate account"): the name, read case-, space- and lookalike-insensitively, contains
 * "flowstate" (issue 20 finding 8). Only Flowstate's own clients could carry such a name, and they
 * are not registered through RFC 7591.
 *
 * @example
 * impersonatesFlowstate("Fl0w State") // true
 */
export const impersonatesFlowstate = (name: string): boolean => readsAs(name).includes("flowstate");
