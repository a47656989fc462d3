import type { z } from 'zod';
import type {
  countrySchema,
  genderEntrySchema,
  localeEntrySchema,
  localeNameSchema,
} from '../../contract/static-data';
import { request } from './http';

export type Country = z.infer<typeof countrySchema>;
export type LocaleEntry = z.infer<typeof localeEntrySchema>;
export type LocaleName = z.infer<typeof localeNameSchema>;
export type GenderEntry = z.infer<typeof genderEntrySchema>;

export const fetchCountries = () => request<Country[]>('static-data/country');
export const fetchLocaleNames = () => request<LocaleName[]>('static-data/locale');
export const fetchGenders = () => request<GenderEntry[]>('static-data/gender');
export const fetchLocales = () => request<LocaleEntry[]>('locales');

export const localesQuery = {
  queryKey: ['locales'] as const,
  queryFn: fetchLocales,
  staleTime: 5 * 60_000,
};
