// A suggestion's why names the learned rule by the text it was taught (decision 0151), in both languages.
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../src/api/statements';
import '../../../src/features/statements/statements-messages';
import { suggestionWhy } from '../../../src/features/statements/suggestion-why';
import { translateIn } from '../../../src/i18n/i18n';

const reasons = (over: Partial<Candidate['reasons']>): Pick<Candidate, 'reasons'> => ({
  reasons: {
    amountExact: true,
    reference: false,
    dateDays: 0,
    nameSimilarity: 0.5,
    learnedRule: false,
    learnedText: null,
    phone: false,
    railDay: false,
    sameAccount: false,
    twin: false,
    ...over,
  },
});

describe('why a suggestion is offered', () => {
  it('names the learned rule by its text', () => {
    const learned = reasons({ learnedRule: true, learnedText: 'MBWAY 964XXX072' });
    expect(suggestionWhy(translateIn('pt-PT'), learned)).toBe(
      'montante ✓ · data ±0 d · referência ✗ · nome 50 % · regra aprendida de uma conciliação anterior de «MBWAY 964XXX072»',
    );
    expect(suggestionWhy(translateIn('en-GB'), learned)).toBe(
      'amount ✓ · date ±0 d · reference ✗ · name 50 % · learned from an earlier match of “MBWAY 964XXX072”',
    );
    expect(suggestionWhy(translateIn('en-GB'), reasons({}))).toBe(
      'amount ✓ · date ±0 d · reference ✗ · name 50 %',
    );
  });

  it('names the customer’s MB WAY phone when its visible digits agree (decision 0160)', () => {
    const byPhone = reasons({ phone: true, nameSimilarity: 1 });
    expect(suggestionWhy(translateIn('pt-PT'), byPhone)).toBe(
      'montante ✓ · data ±0 d · referência ✗ · nome 100 % · o telemóvel MB WAY é o do cliente (dígitos visíveis iguais)',
    );
    expect(suggestionWhy(translateIn('en-GB'), byPhone)).toBe(
      'amount ✓ · date ±0 d · reference ✗ · name 100 % · the MB WAY phone is the customer’s (visible digits agree)',
    );
  });

  it('says a candidate days away is booked on its rail’s day, and says nothing of it the same day (decision 0175)', () => {
    const afterWeekend = reasons({ railDay: true, dateDays: 3 });
    expect(suggestionWhy(translateIn('pt-PT'), afterWeekend)).toBe(
      'montante ✓ · data ±3 d · referência ✗ · nome 50 % · lançada no dia do seu meio de pagamento (uma transferência SEPA no dia útil seguinte)',
    );
    expect(suggestionWhy(translateIn('en-GB'), afterWeekend)).toBe(
      'amount ✓ · date ±3 d · reference ✗ · name 50 % · booked on its rail’s day (a SEPA credit the business day after)',
    );
    expect(suggestionWhy(translateIn('en-GB'), reasons({ railDay: true, dateDays: 0 }))).toBe(
      'amount ✓ · date ±0 d · reference ✗ · name 50 %',
    );
    expect(suggestionWhy(translateIn('en-GB'), reasons({ railDay: false, dateDays: 1 }))).toBe(
      'amount ✓ · date ±1 d · reference ✗ · name 50 %',
    );
  });

  it('names the payer’s account and a twin document the matcher read across the file (decision 0177)', () => {
    const both = reasons({ sameAccount: true, twin: true, nameSimilarity: 0.75 });
    expect(suggestionWhy(translateIn('pt-PT'), both)).toBe(
      'montante ✓ · data ±0 d · referência ✗ · nome 75 % · a mesma conta pagou outro documento desta pessoa neste ficheiro · esta pessoa tem outro documento em aberto do mesmo valor e dia: pagar um ou outro é igual',
    );
    expect(suggestionWhy(translateIn('en-GB'), reasons({ sameAccount: true }))).toBe(
      'amount ✓ · date ±0 d · reference ✗ · name 50 % · the same account paid another document of this person in this file',
    );
    expect(suggestionWhy(translateIn('en-GB'), reasons({ twin: true }))).toBe(
      'amount ✓ · date ±0 d · reference ✗ · name 50 % · this person has another open document of the same amount and day: paying either is the same',
    );
  });
});
