import type { Locale } from '../../machines/session';
import { request } from './http';

export interface Country {
  code: string;
  name: Record<Locale, string>;
  phoneCode: string;
}
export interface LocaleEntry {
  id: Locale;
  enabled: boolean;
}

export const fetchCountries = () => request<Country[]>('static-data/country');
export const fetchLocaleNames = () => request<{ id: Locale; name: string }[]>('static-data/locale');
export const fetchGenders = () => request<{ id: 'male' | 'female' }[]>('static-data/gender');
export const fetchLocales = () => request<LocaleEntry[]>('locales');

export const localesQuery = {
  queryKey: ['locales'] as const,
  queryFn: fetchLocales,
  staleTime: 5 * 60_000,
};
