import { describe, expect, it } from 'vitest';
import {
  bicRequiredFor,
  checkIban,
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
  });
});
