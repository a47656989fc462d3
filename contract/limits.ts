/**
 * Text limits the API enforces and the console's inputs carry (`maxLength`), so a limit is met while
 * typing instead of refused after. Zod-free: the console imports it at run time (.dependency-cruiser.cjs).
 */

/** The longest users search (`q`). */
export const USER_SEARCH_MAX = 120;
/** The longest "cases to process" search (`q`, a doctor's name). */
export const CASES_TO_PROCESS_SEARCH_MAX = 120;
/** The longest cases search (`q`). */
export const CASE_SEARCH_MAX = 200;
/** The longest area-of-interest name. */
export const AREA_NAME_MAX = 80;
/** The longest palette search of the money records (`q`: a MsgId, an EndToEndId, a file name, an amount, a name). */
export const MONEY_SEARCH_MAX = 80;
