// Formula neutralisation (OWASP "CSV Injection"): a user-supplied text cell that starts with `=`, `+`, `-`,
// `@`, tab (0x09) or carriage return (0x0D) gets a leading single quote, so a spreadsheet shows it as
// text instead of evaluating it (`=HYPERLINK(...)`, `@SUM(...)`, `-2+3` …). The writers apply it to
// `text` cells and headers only: numbers, money and dates they format themselves (e.g. `-12,50`) are
// typed values, never user text, and stay as they are.
//
// The same rule is used for XLSX, where an inline string is never evaluated anyway, because such a
// workbook is often re-saved as CSV and then the cell would become live again.

const Q = 0x27;

/** True when the text would be read as a formula (or a DDE/command prefix) by a spreadsheet. */
export function isFormulaLike(s: string): boolean {
  if (s.length === 0) return false;
  const c = s.charCodeAt(0);
  return c === 0x3d || c === 0x2b || c === 0x2d || c === 0x40 || c === 0x09 || c === 0x0d;
}

export function neutralise(s: string): string {
  return isFormulaLike(s) ? String.fromCharCode(Q) + s : s;
}

/**
 * A phone number or country code as people write it (`+351`, `+351 912 345 678`, `912345678`): a `+`,
 * digits and single spaces between them, nothing a spreadsheet could call or link. Such a cell is not
 * given the quote a person would read as part of the number (decision 0128); anything else in a phone
 * column is neutralised as text.
 */
export const PHONE_PATTERN = /^\+?[0-9]+(?: [0-9]+)*$/;
/** The same rule as PostgreSQL's regular expression (the SQL writers). */
export const PHONE_PATTERN_SQL = String.raw`'^\+?[0-9]+( [0-9]+)*$'`;

/**
 * A phone cell's CSV text: a number starting with `+` gets a leading tab (OWASP's other neutraliser: a
 * spreadsheet opening the CSV reads the cell as text, `+351` and not the formula `=+351`, and shows no
 * quote); anything that is not a phone number is neutralised as text.
 */
export function csvPhoneText(s: string): string {
  return PHONE_PATTERN.test(s) ? (s.startsWith('+') ? `\t${s}` : s) : neutralise(s);
}
