import { useMemo } from 'react';
import { useSearch } from 'wouter';
import { CasesTable } from './CasesTable';

// Links from elsewhere (a patient's or doctor's view) narrow the list by person in the URL.
const PERSON_KEYS = ['customerId', 'professionalId'] as const;

export default function CasesScreen() {
  const search = useSearch();
  const fixedFilters = useMemo(() => {
    const params = new URLSearchParams(search);
    const entries = PERSON_KEYS.flatMap((key) => {
      const value = params.get(key);
      return value ? [[key, [value]] as const] : [];
    });
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }, [search]);
  return <CasesTable id="cases" {...(fixedFilters ? { fixedFilters } : {})} />;
}
