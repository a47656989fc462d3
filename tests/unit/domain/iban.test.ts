import { describe, expect, it } from 'vitest';
import {
  bicRequiredFor,
  checkIban,
  checkPayableIban,
  isSepaIban,
  isValidBicFormat,
  missingProfessionalFields,
  normalizeBic,
  normalizeIban,
} from '../../../domain/iban';

describe('IBAN and BIC', () => {
  it('normalises to the electronic form', () => {
    expect(normalizeIban(' pt50 0033 0000 4567 8901 2343 7 ')).toBe('PT50003300004567890123437');
    expect(checkIban('pt50 0033 0000 4567 8901 2343 7')).toEqual({
      valid: true,
      iban: 'PT50003300004567890123437',
    });
  });

  it('checks mod-97 and the Portuguese NIB check digits', () => {
    expect(checkIban('PT50003300004567890123438')).toMatchObject({
      valid: false,
      code: 'INVALID_NATIONAL_CHECKSUM',
    });
    expect(checkIban('DE89370400440532013001')).toMatchObject({ valid: false, code: 'INVALID_CHECKSUM' });
    expect(checkIban('DE89370400440532013000').valid).toBe(true);
    expect(checkIban('XX00123')).toMatchObject({ valid: false, code: 'INVALID_COUNTRY' });
    expect(checkIban('')).toMatchObject({ valid: false, code: 'REQUIRED' });
    expect(checkIban(null)).toMatchObject({ valid: false, code: 'REQUIRED' });
  });

  it('upper-cases BICs before checking them', () => {
    expect(normalizeBic('cgdi ptpl')).toBe('CGDIPTPL');
    expect(isValidBicFormat('cgdiptpl')).toBe(true);
    expect(isValidBicFormat('CGDIPTPLXXX')).toBe(true);
    expect(isValidBicFormat('CGD1PTPL')).toBe(false);
  });

  it('knows where IBAN-only does not apply', () => {
    expect(bicRequiredFor('CH9300762011623852957')).toBe(true);
    expect(bicRequiredFor('PT50003300004567890123437')).toBe(false);
    expect(bicRequiredFor('AL47212110090000000235698741')).toBe(true);
    expect(bicRequiredFor('BR1800360305000010009795493C1')).toBe(false);
  });

  it('knows the SEPA-scheme countries (EPC409-09), territories by the IBAN code they use', () => {
    const sepa = [
      'PT50003300004567890123437',
      'DE89370400440532013000',
      'GB29NWBK60161331926819', // also Jersey, Guernsey, Isle of Man
      'GI75NWBK000000007099453',
      'CH9300762011623852957',
      'AD1200012030200359100100',
      'VA59001123000012345678',
      'AL47212110090000000235698741',
      'ME25505000012345678951',
      'MK07250120000058984',
      'MD24AG000225100013104168',
      'RS35260005601001611379',
    ];
    for (const iban of sepa) expect([iban, isSepaIban(iban)]).toEqual([iban, true]);
    const outside = [
      'BR1800360305000010009795493C1',
      'TR330006100519786457841326',
      'FO6264600001631634', // Faroe Islands: Danish, but outside SEPA
      'GL8964710001000206',
      'GF4120041010050500013M02606', // French Guiana's accounts have FR IBANs; ibantools knows GF anyway
    ];
    for (const iban of outside) {
      expect(checkIban(iban).valid).toBe(true);
      expect(checkPayableIban(iban)).toEqual({ valid: false, iban, code: 'IBAN_NOT_SEPA' });
    }
    expect(checkPayableIban('pt50 0033 0000 4567 8901 2343 7')).toEqual({
      valid: true,
      iban: 'PT50003300004567890123437',
    });
    expect(checkPayableIban('PT50003300004567890123438')).toMatchObject({
      code: 'INVALID_NATIONAL_CHECKSUM',
    });
  });
});

describe('missingProfessionalFields (DESIGN.md §6)', () => {
  const complete = {
    fullName: 'Joana Gonçalves',
    taxNumber: '123456789',
    iban: 'PT50003300004567890123437',
    collegeNumber: 'OM-1234',
  };

  it('is empty for a complete profile; BIC is not needed', () => {
    expect(missingProfessionalFields(complete)).toEqual([]);
  });

  it('names each missing or invalid field', () => {
    expect(missingProfessionalFields({})).toEqual(['fullName', 'taxNumber', 'iban', 'collegeNumber']);
    expect(
      missingProfessionalFields({ ...complete, fullName: '  ', iban: 'PT50003300004567890123438' }),
    ).toEqual(['fullName', 'iban']);
    expect(missingProfessionalFields({ ...complete, collegeNumber: null })).toEqual(['collegeNumber']);
    // An IBAN no SEPA transfer can reach is as good as missing.
    expect(missingProfessionalFields({ ...complete, iban: 'BR1800360305000010009795493C1' })).toEqual([
      'iban',
    ]);
  });
});
