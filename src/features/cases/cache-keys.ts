import { caseKeys } from '../../api/cases';

/** Prefix of every cases table's pages (the /cases screen and the patient and doctor views). */
export const CASES_TABLE_KEY = [...caseKeys.all, 'table'] as const;
/** Prefix of the palette's case look-ups (`caseKeys.list(params)`). */
export const CASE_LOOKUP_KEY = [...caseKeys.all, 'list'] as const;
