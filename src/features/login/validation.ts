export interface LoginValues {
  email: string;
  password: string;
}

export type LoginErrors = Partial<Record<keyof LoginValues, 'validation.required' | 'validation.email'>>;

// Deliberately loose: the server decides what an address is; this only catches typos.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The spec's `required` and `email` rules; answers translation keys. */
export function validateLogin(values: LoginValues): LoginErrors {
  const errors: LoginErrors = {};
  const email = values.email.trim();
  if (!email) errors.email = 'validation.required';
  else if (!EMAIL.test(email)) errors.email = 'validation.email';
  if (!values.password) errors.password = 'validation.required';
  return errors;
}
