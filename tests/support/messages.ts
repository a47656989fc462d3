import firstLoadEnGB from '../../locales/en-GB.json';
import financeEnGB from '../../locales/finance.en-GB.json';
import financePtPT from '../../locales/finance.pt-PT.json';
import firstLoadPtPT from '../../locales/pt-PT.json';
import sourcesEnGB from '../../locales/sources.en-GB.json';
import sourcesPtPT from '../../locales/sources.pt-PT.json';
import statementsEnGB from '../../locales/statements.en-GB.json';
import statementsPtPT from '../../locales/statements.pt-PT.json';

type Tables = Record<string, unknown>;
type Merged<A, B> = Omit<A, keyof B> & Omit<B, keyof A> & { [K in keyof A & keyof B]: A[K] & B[K] };

/** A lazy screen's strings added to what is there, namespace by namespace, as `addMessages` does. */
function merged<A extends Tables, B extends Tables>(base: A, added: B): Merged<A, B> {
  const result: Tables = { ...base };
  for (const [namespace, value] of Object.entries(added)) {
    const existing = result[namespace];
    result[namespace] =
      typeof existing === 'object' && existing !== null && typeof value === 'object' && value !== null
        ? { ...existing, ...value }
        : value;
  }
  return result as Merged<A, B>;
}

/** Every string of the console in each language: the first load's and every lazy screen's. */
export const enGB = merged(merged(merged(firstLoadEnGB, financeEnGB), statementsEnGB), sourcesEnGB);
export const ptPT = merged(merged(merged(firstLoadPtPT, financePtPT), statementsPtPT), sourcesPtPT);
