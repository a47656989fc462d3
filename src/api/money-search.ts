import type { FinanceSearch, StatementsSearch } from '../../contract/money-search';
import { request } from './http';

export type { FinanceSearch, StatementsSearch };

/** The palette's search of SEPA files, transfers and doctors with settlements (decision 0131). */
export const searchFinance = (q: string) =>
  request<FinanceSearch>('admin/search/finance', { params: { q, limit: 5 } });

/** The palette's search of statement files and lines (decision 0131). */
export const searchStatements = (q: string) =>
  request<StatementsSearch>('admin/search/statements', { params: { q, limit: 5 } });
