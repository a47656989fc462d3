/**
 * Limits the API enforces and the console checks before sending: text limits its inputs carry
 * (`maxLength`), so a limit is met while typing instead of refused after, and the size of a file. Zod-free: the console imports it at run time (.dependency-cruiser.cjs).
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

/**
 * Specification §9: the largest file anyone uploads or the server stores, 40 MB (40 MiB). Upload routes
 * refuse more with 413 while reading; the statement upload refuses it before reading (machines/); the
 * storages refuse more unless their caller (exports) passes its own limit. Migration 0001's CHECK on
 * `stored_files.size_bytes` holds the same number, as a migration cannot import it.
 */
export const MAX_FILE_BYTES = 41_943_040;

/**
 * A SAF-T (PT) upload may be compressed (gzip, a ZIP of one XML file; decision 0149): the most bytes of
 * XML it may hold once decompressed. A month of 100,000 one-line invoices is ~215 MB written with
 * two-space indentation, ~280 MB with four; the reader holds only the piece it is reading, so the cap
 * bounds the time a file takes, not the memory.
 */
export const MAX_SAFT_XML_BYTES = 536_870_912;

/**
 * The most XML bytes per compressed byte a SAF-T upload may expand to. Real exports compress 10–45
 * times (a generated month of 100,000 invoices: 41); a decompression bomb expands hundreds to a
 * thousand times and is refused a slice after passing this.
 */
export const MAX_SAFT_COMPRESSION_RATIO = 100;
