/** Ids per `POST /v2/admin/sources/known` (`KNOWN_SOURCE_IDS_MAX`, contract/source-import.ts; a test holds them equal). */
export const KNOWN_SOURCE_IDS_MAX = 5_000;
