/** An IBAN in groups of four, as banks print it (the electronic form has no spaces). */
export const printedIban = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ');
