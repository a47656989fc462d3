// A realistic month of one clinic platform's bank account, generated from a seed, with the truth beside
// every line: which counterpart a person would link it to (or none), and whether the line carries enough
// for a person to find it (`findable`). Used by bench/matcher-quality.ts; the model is decision 0142.
//
// What a month holds (shares of the statement's lines):
// - customers paying consultations (5–30 €, six prices) and subscriptions (19,90 / 29,90 €), about two
//   payments per customer in the month (some none, some several); by rail: SEPA transfer (booked the next PT business
//   day, the name as the bank prints it), MB WAY (same day; the name, or for one customer in five only
//   the phone, masked as Caixa Geral de Depósitos prints it, "TRF MBWAY 964XXX072" — findable by the
//   customer's phone, which the product holds and the invoice carries, unless another customer's phone
//   shows the same digits for an invoice of the amount within days: decision 0160), Multibanco reference
//   (no line of its own: the collector, ifthenpay, settles each business day's payments net of its fee,
//   one credit booked 1–2 business days later, the settlement id in the text half the time — a payout in
//   the product, its report the generic provider CSV: decision 0165);
// - the sales document of every payment that reaches the bank on its own line (SEPA, MB WAY) is a
//   counterpart, numbered as the invoicing program prints it ("FT 2026A/17", a reference no bank line
//   prints); those paid by card or Multibanco are paid by a payout's rows, and the product does not offer
//   them to bank lines (decision 0166);
// - each customer's bank sends the name the same way every month (style and width), the MB WAY habit
//   (name or phone) is the customer's, and subscribers (17 % of the customers) pay their subscription
//   every month on about the same day: a second month (`paymentsSeed`) repeats what a real one repeats
//   (decision 0151);
// - card payments reach the account only as provider payouts: many payments of 2–7 days before, fees
//   deducted, booked 1–2 business days after the payout, the payout id in the text most of the time;
// - the provider's fee invoices (direct debit, the invoice id in the text or not);
// - transfers to doctors (SEPA, out; their EndToEndId on camt lines, the creditor's name and IBAN);
//   SEPA credits carry the payer's IBAN on camt lines (40 %, the same share), so a second month's
//   learned IBAN rules can speak (decision 0160);
// - refunds to customers (a SEPA transfer out, its counterpart the credit note, the customer's of the
//   invoice it corrects: migration 0055), chargebacks and bank fees (no counterpart);
// - a few typos in names and a few lines the bank printed twice (the copy has no counterpart);
// - counterparts that have no line this month (unpaid invoices, transfers not yet executed).
// Names as banks print them: upper case, accents stripped, cut to 18–35 characters, sometimes first
// names as initials ("TRF SEPA J SIMOES"). Dates: June 2026 (Corpus Christi 4 Jun and 10 Jun are PT
// holidays), weekends skip to the next business day.

import { addDays, isTarget2BusinessDay } from '../domain/business-days';
import type { ExpectedItem, MatchEntry } from '../domain/reconcile/match';
import { matchEntry } from '../tests/support/match-entries';

export interface Truth {
  /** The counterpart a person links the line to, or null when it has none. */
  itemId: string | null;
  /** The line carries what a person needs to pick that counterpart (name, reference or id). */
  findable: boolean;
  /** What the line is, for the per-kind table. */
  kind: LineKind;
  /** It has a counterpart, but another customer's name (or masked phone) prints the same for the same amount and days. */
  ambiguous?: boolean;
}

export type LineKind =
  | 'sepa-in'
  | 'mbway-name'
  | 'mbway-phone'
  | 'collector-payout'
  | 'payout'
  | 'provider-invoice'
  | 'doctor-transfer'
  | 'refund'
  | 'chargeback'
  | 'bank-fee'
  | 'duplicate';

export interface Month {
  entries: MatchEntry[];
  items: ExpectedItem[];
  truth: Map<string, Truth>;
}

/** mulberry32: small, fast, and the same numbers on every machine for one seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'João',
  'Maria',
  'José',
  'Ana',
  'António',
  'Inês',
  'Francisco',
  'Beatriz',
  'Luís',
  'Mariana',
  'Gonçalo',
  'Leonor',
  'Tomás',
  'Matilde',
  'Rui',
  'Sofia',
  'Pedro',
  'Margarida',
  'Miguel',
  'Conceição',
  'Sérgio',
  'Fátima',
  'Vítor',
  'Lúcia',
  'André',
  'Helena',
  'Raúl',
  'Célia',
  'Hugo',
  'Irene',
];
const LAST = [
  'Simões',
  'Gonçalves',
  'Conceição',
  'Magalhães',
  'Araújo',
  'Brandão',
  'Assunção',
  'Falcão',
  'Sousa',
  'Ferreira',
  'Pereira',
  'Lopes',
  'Marques',
  'Ribeiro',
  'Carvalho',
  'Gomes',
  'Martins',
  'Rodrigues',
  'Fernandes',
  'Costa',
  'Santos',
  'Oliveira',
  'Almeida',
  'Nunes',
  'Mendes',
  'Pinto',
  'Cardoso',
  'Teixeira',
  'Correia',
  'Monteiro',
  'Moreira',
  'Vieira',
  'Barbosa',
  'Rocha',
  'Fonseca',
  'Azevedo',
  'Leitão',
  'Tavares',
  'Coelho',
  'Cunha',
  'Antunes',
  'Pires',
  'Castro',
  'Faria',
  'Baptista',
  'Loureiro',
  'Quintas',
  'Valente',
];
/** Consultation prices: few distinct values, as the specification's 5–30 € range is used in practice. */
const PRICES = [500, 1000, 1500, 2000, 2500, 3000];
const SUBSCRIPTIONS = [1990, 2990];
/** Customers with a monthly subscription: about 15 % of the payments in a month are theirs. */
const SUBSCRIBERS = 0.17;
const PT_HOLIDAYS = new Set(['2026-06-04', '2026-06-10']);
const MONTH_DAYS = 30;

const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase();
const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const between = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

const isBusinessDay = (date: string) => isTarget2BusinessDay(date) && !PT_HOLIDAYS.has(date);
/** `days` business days after `date` (0: the date itself if it is one, else the next). */
function businessDaysAfter(date: string, days: number): string {
  let d = date;
  while (!isBusinessDay(d)) d = addDays(d, 1);
  for (let k = 0; k < days; k++) {
    d = addDays(d, 1);
    while (!isBusinessDay(d)) d = addDays(d, 1);
  }
  return d;
}
const dayOfMonth = (n: number) => `2026-06-${String(n).padStart(2, '0')}`;

/** A typo: two neighbouring letters of one word swapped. */
function typo(r: () => number, name: string): string {
  const at = between(r, 1, Math.max(1, name.length - 3));
  if (name[at] === ' ' || name[at + 1] === ' ') return name;
  return name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2);
}

type PrintStyle = 'initial-surname' | 'initials-surname' | 'full';

/** How a bank prints one name: the style and the width it is cut to. */
interface Print {
  style: PrintStyle;
  width: number;
}

/** The name as a bank prints it: upper case, no accents, maybe initials ("J SIMOES", "M J SIMOES"), cut. */
function render(full: string, print: Print): string {
  const words = ascii(full).split(' ');
  const surname = words[words.length - 1]!;
  const text =
    print.style === 'initial-surname'
      ? `${words[0]![0]} ${surname}`
      : print.style === 'initials-surname'
        ? [...words.slice(0, -1).map((w) => w[0]), surname].join(' ')
        : words.join(' ');
  return text.slice(0, print.width).trim();
}

function randomPrint(r: () => number): Print {
  const style = r();
  return {
    style: style < 0.25 ? 'initial-surname' : style < 0.45 ? 'initials-surname' : 'full',
    width: between(r, 18, 35),
  };
}

const bankName = (r: () => number, full: string) => render(full, randomPrint(r));

interface Customer {
  /** The customer's (or doctor's) id, as the product's counterparts carry it (`ExpectedItem.partyId`). */
  id: string;
  name: string;
  phone: string;
  /** How the customer's bank sends the name: the same every month (decision 0151). */
  print: Print;
  /** Their MB WAY transfers arrive with the phone instead of the name (the same every month). */
  mbWayByPhone: boolean;
  /** A monthly subscription (amount, day of the month) or none: paid every month on about that day. */
  subscription: { amountCents: number; day: number } | null;
}

/**
 * The share of SEPA credits whose line carries the payer's IBAN: a camt.053 entry carries the debtor's
 * account (`DbtrAcct`), a CSV export does not; the same share as the doctors' transfers whose lines are
 * camt's (decision 0160).
 */
const CAMT_SHARE = 0.4;

/** A customer's account, the same every month (a made-up Portuguese IBAN of the customer's number). */
const customerIban = (c: Customer) => `PT50${c.id.slice(1).padStart(21, '0')}`;

/**
 * An MB WAY payer's phone as the bank prints it: the middle three digits masked, as Caixa Geral de
 * Depósitos prints "TRF MBWAY 964XXX072" (decision 0151; the product's matcher never sees the whole number).
 */
const maskedPhone = (phone: string) => `${phone.slice(0, 3)}XXX${phone.slice(6)}`;

/**
 * The Multibanco collector's fee per payment: ifthenpay's published €0.22 + 1.7 % plus VAT (23 %) per
 * Multibanco reference paid (decision 0165), deducted from its settlement.
 */
const collectorFee = (grossCents: number) => Math.round((22 + 0.017 * grossCents) * 1.23);
/**
 * The share of the collector's credits whose bank text carries its settlement id: no public statement
 * of a collector's credit was found, so half — both ways of finding it (the id, or the net amount and
 * the date) are measured (decision 0165).
 */
const SETTLEMENT_ID_SHARE = 0.5;

/** A month of `n` statement lines (about as many counterparts), the same for the same seed. */
/**
 * `paymentsSeed`: another month of the same customers (their names, phones and ids from `seed`), its
 * payments drawn from this seed — the "second month" whose lines the first month's matches taught.
 */
/**
 * `latePayers`: the share of customers' SEPA and MB WAY payments made 1–3 business days after their
 * document's date (booked that much after the rail's day) — not in the model above, where a document is
 * dated the day its payment is made: a probe of how much the matcher's sureness leans on that (decision 0178).
 */
export function generateMonth(
  n: number,
  seed: number,
  paymentsSeed?: number,
  { latePayers = 0 }: { latePayers?: number } = {},
): Month {
  let r = rng(seed);
  const entries: MatchEntry[] = [];
  const items: ExpectedItem[] = [];
  const truth = new Map<string, Truth>();
  const customers: Customer[] = Array.from({ length: Math.max(10, Math.round(n / 2.2)) }, (_, k) => {
    const given = r() < 0.4 ? `${pick(r, FIRST)} ${pick(r, FIRST)}` : pick(r, FIRST);
    const family = r() < 0.6 ? `${pick(r, LAST)} ${pick(r, LAST)}` : pick(r, LAST);
    return {
      id: `C${k}`,
      name: `${given} ${family}`,
      phone: `9${between(r, 1, 6)}${between(r, 1000000, 9999999)}`,
      print: randomPrint(r),
      mbWayByPhone: r() < 0.2,
      subscription:
        r() < SUBSCRIBERS
          ? { amountCents: pick(r, SUBSCRIPTIONS), day: between(r, 1, MONTH_DAYS - 3) }
          : null,
    };
  });
  // Whether a credit's line carries the payer's IBAN, drawn apart so the month's other draws stay as they were.
  const camtR = rng((paymentsSeed ?? seed) ^ 0x5ca7);
  // The collector's settlements' own draws (their lag, their text), apart likewise.
  const collectorR = rng((paymentsSeed ?? seed) ^ 0x3b1c);
  // Late payments' own draws, apart likewise: with no late payers the month is the one it always was.
  const lateR = rng((paymentsSeed ?? seed) ^ 0x1a7e);
  const paidLate = (booked: string) =>
    latePayers > 0 && lateR() < latePayers ? businessDaysAfter(booked, between(lateR, 1, 3)) : booked;
  // Subscribers pay once a month each, in an order of the month's own.
  const subscribers = customers.filter((c) => c.subscription);
  if (paymentsSeed !== undefined) r = rng(paymentsSeed);
  for (let k = subscribers.length - 1; k > 0; k--) {
    const j = Math.floor(r() * (k + 1));
    [subscribers[k], subscribers[j]] = [subscribers[j]!, subscribers[k]!];
  }
  let seq = 0;
  const id = (prefix: string) => `${prefix}${String(++seq).padStart(7, '0')}`;
  const line = (kind: LineKind, over: Partial<MatchEntry>, itemId: string | null, findable: boolean) => {
    const lineNumber = entries.length + 1;
    const e = matchEntry({
      id: `L${String(lineNumber).padStart(7, '0')}`,
      lineNumber,
      bookingDate: dayOfMonth(1),
      amountCents: 0,
      ...over,
    });
    entries.push(e);
    truth.set(e.id, { itemId, findable, kind });
    return e;
  };
  // Sales documents and credit notes numbered as the invoicing program prints them ("FT 2026A/17"): the
  // product's counterpart carries that number as its reference, which no bank line prints.
  let documentNo = 0;
  const invoice = (c: Customer, amountCents: number, date: string): ExpectedItem => {
    const item: ExpectedItem = {
      id: id('INV'),
      type: 'invoice',
      direction: 'in',
      amountCents,
      date,
      reference: `FT 2026A/${++documentNo}`,
      counterpartyName: c.name,
      // The customer's phone as the product holds it (users' phone, decision 0160).
      counterpartyPhone: `+351 ${c.phone}`,
      partyId: c.id,
    };
    items.push(item);
    return item;
  };

  // A collector's settlement of one business day's Multibanco payments: a payout in the product (its
  // report imported as the generic provider CSV, decision 0152), the settlement id its reference.
  const collectorPayout = (day: string, netCents: number) => {
    const settlementId = `IFT${day.replaceAll('-', '')}${between(collectorR, 1000, 9999)}`;
    const item: ExpectedItem = {
      id: id('MBS'),
      type: 'payout',
      amountCents: netCents,
      date: day,
      reference: settlementId,
    };
    items.push(item);
    line(
      'collector-payout',
      {
        amountCents: netCents,
        bookingDate: businessDaysAfter(day, between(collectorR, 1, 2)),
        description:
          collectorR() < SETTLEMENT_ID_SHARE ? `TRF IFTHENPAY LDA ${settlementId}` : 'TRF IFTHENPAY LDA',
      },
      item.id,
      true,
    );
  };

  // How each customer's payment line printed the name (by line index), for the ambiguity check below.
  const printedAs = new Map<number, { print: Print; clean: string; item: ExpectedItem }>();
  // Likewise each MB WAY line that printed the phone (by line index), with the invoice it pays.
  const phonedAs = new Map<number, ExpectedItem>();
  // Card payments wait here until a payout carries them.
  let cardBatch = 0;
  // Multibanco payments by the business day the collector settles them: one credit per day, after the loop.
  const settlements = new Map<string, { grossCents: number; feeCents: number }>();
  while (entries.length + settlements.size < n) {
    const u = r();
    const date = dayOfMonth(between(r, 1, MONTH_DAYS - 3));
    if (u < 0.58) {
      // A customer pays a consultation, or a subscriber this month's subscription on about its day.
      const subscriber = r() < 0.15 ? subscribers.pop() : undefined;
      const c = subscriber ?? pick(r, customers);
      const amount = subscriber ? subscriber.subscription!.amountCents : pick(r, PRICES);
      const paidOn = subscriber
        ? dayOfMonth(Math.min(MONTH_DAYS - 3, Math.max(1, subscriber.subscription!.day + between(r, -1, 1))))
        : date;
      const rail = r();
      if (rail < 0.12) {
        // By card: it reaches the bank inside a payout, counted below. Its sales document is paid by that
        // payout's rows, and the product no longer offers it to bank lines (decision 0166).
        cardBatch += amount;
        continue;
      }
      const print = c.print;
      const clean = render(c.name, print);
      const printed = r() < 0.02 ? typo(r, clean) : clean;
      if (rail >= 0.85) {
        // By Multibanco reference: the collector settles the day's payments net of its fee (decision 0165),
        // and that settlement pays the sales document, which is not offered to bank lines (decision 0166).
        const day = businessDaysAfter(paidOn, 0);
        const settlement = settlements.get(day) ?? { grossCents: 0, feeCents: 0 };
        settlement.grossCents += amount;
        settlement.feeCents += collectorFee(amount);
        settlements.set(day, settlement);
        continue;
      }
      const item = invoice(c, amount, paidOn);
      // Only a line printing the name can be told from another customer's by it; a phone is no name.
      const byName = rail < 0.55 || !c.mbWayByPhone;
      if (byName) printedAs.set(entries.length, { print, clean, item });
      if (rail < 0.55) {
        line(
          'sepa-in',
          {
            amountCents: amount,
            bookingDate: paidLate(businessDaysAfter(paidOn, 1)),
            description: r() < 0.5 ? `TRF SEPA ${printed}` : `TRF CR SEPA+ DE ${printed}`,
            counterpartyName: r() < 0.3 ? printed : null,
            counterpartyIban: camtR() < CAMT_SHARE ? customerIban(c) : null,
          },
          item.id,
          true,
        );
      } else {
        const byPhone = c.mbWayByPhone;
        if (byPhone) phonedAs.set(entries.length, item);
        line(
          byPhone ? 'mbway-phone' : 'mbway-name',
          {
            amountCents: amount,
            bookingDate: paidLate(r() < 0.7 ? paidOn : businessDaysAfter(paidOn, 1)),
            description: byPhone ? `TRF MBWAY ${maskedPhone(c.phone)}` : `MB WAY ${printed}`,
          },
          item.id,
          true,
        );
      }
    } else if (u < 0.66) {
      // A provider payout: the card payments gathered so far, minus the provider's fees.
      const gross = cardBatch + between(r, 5, 40) * pick(r, PRICES);
      cardBatch = 0;
      const net = gross - Math.round(gross * 0.014) - 25 * between(r, 3, 30);
      const payoutId = `po_${Math.floor(r() * 36 ** 10)
        .toString(36)
        .toUpperCase()}`;
      const item: ExpectedItem = {
        id: id('PAY'),
        type: 'payout',
        amountCents: net,
        date,
        reference: payoutId,
      };
      items.push(item);
      line(
        'payout',
        {
          amountCents: net,
          bookingDate: businessDaysAfter(date, between(r, 1, 2)),
          description:
            r() < 0.75 ? `TRF CR STRIPE PAYMENTS EUROPE ${payoutId}` : 'TRF CR STRIPE PAYMENTS EUROPE LTD',
        },
        item.id,
        true,
      );
    } else if (u < 0.68) {
      const invoiceId = `in_${Math.floor(r() * 36 ** 10)
        .toString(36)
        .toUpperCase()}`;
      const amount = between(r, 500, 40000);
      const item: ExpectedItem = {
        id: id('PIN'),
        type: 'invoice',
        direction: 'out',
        amountCents: amount,
        date,
        reference: invoiceId,
      };
      items.push(item);
      line(
        'provider-invoice',
        {
          amountCents: -amount,
          bookingDate: businessDaysAfter(date, between(r, 0, 2)),
          description: r() < 0.6 ? `DD STRIPE ${invoiceId}` : 'DD STRIPE PAYMENTS EUROPE',
        },
        item.id,
        true,
      );
    } else if (u < 0.86) {
      // A transfer to a doctor: camt lines carry its EndToEndId, CSV lines only the name.
      const doctor = pick(r, customers);
      const amount = between(r, 20, 400) * 250;
      const e2e = `STL-${id('E')}`;
      const iban = `PT50${String(between(r, 1e8, 9e8))}${String(between(r, 1e8, 9e8))}${between(r, 100, 999)}`;
      const item: ExpectedItem = {
        id: id('SEP'),
        type: 'sepa',
        amountCents: amount,
        date,
        endToEndId: e2e,
        batchIds: [`PMT-${date}`],
        counterpartyName: `Dr. ${doctor.name}`,
        partyId: doctor.id,
        counterpartyIban: iban,
      };
      items.push(item);
      const camt = r() < 0.4;
      line(
        'doctor-transfer',
        {
          amountCents: -amount,
          bookingDate: businessDaysAfter(date, 0),
          description: `TRF SEPA P/ ${bankName(r, doctor.name)}`,
          endToEndId: camt ? e2e : null,
          counterpartyIban: camt || r() < 0.3 ? iban : null,
        },
        item.id,
        true,
      );
    } else if (u < 0.89) {
      // A refund of a consultation, transferred back to the customer: its counterpart in the product is
      // the credit note (SEPA files pay doctors only), the customer's of the invoice it corrects
      // (migration 0055, decision 0165's amendment).
      const c = pick(r, customers);
      const amount = pick(r, PRICES);
      const item: ExpectedItem = {
        id: id('REF'),
        type: 'invoice',
        direction: 'out',
        amountCents: amount,
        date,
        reference: `NC 2026A/${++documentNo}`,
        counterpartyName: c.name,
        counterpartyPhone: `+351 ${c.phone}`,
        partyId: c.id,
      };
      items.push(item);
      line(
        'refund',
        {
          amountCents: -amount,
          bookingDate: businessDaysAfter(date, 0),
          description: `TRF SEPA P/ ${bankName(r, c.name)} DEVOL`,
        },
        item.id,
        true,
      );
    } else if (u < 0.9) {
      line(
        'chargeback',
        {
          amountCents: -pick(r, PRICES),
          bookingDate: businessDaysAfter(date, 0),
          description: 'CHARGEBACK STRIPE',
        },
        null,
        false,
      );
    } else if (u < 0.93) {
      line(
        'bank-fee',
        {
          amountCents: -pick(r, [125, 250, 500, 780]),
          bookingDate: businessDaysAfter(date, 0),
          kind: 'fee',
          description: r() < 0.5 ? 'COMISSAO MANUTENCAO CONTA' : 'IMPOSTO DO SELO S/ COMISSOES',
        },
        null,
        false,
      );
    } else if (u < 0.935 && entries.length > 0) {
      // The bank printed a line twice: the copy has no counterpart of its own.
      const copied = entries[Math.floor(r() * entries.length)]!;
      const { id: _id, lineNumber: _n, ...rest } = copied;
      line('duplicate', rest, null, false);
    } else {
      // An invoice still unpaid, or a transfer not yet on the statement: a counterpart with no line.
      const c = pick(r, customers);
      invoice(c, r() < 0.15 ? pick(r, SUBSCRIPTIONS) : pick(r, PRICES), date);
    }
  }
  for (const [day, { grossCents, feeCents }] of [...settlements].sort(([a], [b]) => (a < b ? -1 : 1)))
    collectorPayout(day, grossCents - feeCents);
  markAmbiguous(entries, items, truth, printedAs);
  markPhonesAlike(entries, items, truth, phonedAs);
  return inStatementOrder({ entries, items, truth }, rng((paymentsSeed ?? seed) ^ 0x0d4e));
}

/**
 * The month numbered as the bank and the invoicing program number it: lines in booking-date order (a
 * statement's), counterparts in date order, each day's in an order of its own. Drawn in the order of
 * generation instead, a line and its counterpart would sit at the same place in both lists, and the
 * matcher's tie-break (id order, for equal evidence) would hand every tie to the truth: no real statement
 * tells that (decision 0176).
 */
function inStatementOrder(month: Month, r: () => number): Month {
  const byDate = <T>(list: T[], date: (x: T) => string): T[] =>
    list
      .map((x) => ({ x, date: date(x), draw: r() }))
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.draw - b.draw))
      .map(({ x }) => x);
  const itemIds = new Map<string, string>();
  const items = byDate(month.items, (i) => i.date ?? '').map((item, k) => {
    const id = `${item.id.slice(0, 3)}${String(k + 1).padStart(7, '0')}`;
    itemIds.set(item.id, id);
    return { ...item, id };
  });
  const truth = new Map<string, Truth>();
  const entries = byDate(month.entries, (e) => e.bookingDate).map((e, k) => {
    const id = `L${String(k + 1).padStart(7, '0')}`;
    const t = month.truth.get(e.id)!;
    truth.set(id, { ...t, itemId: t.itemId === null ? null : itemIds.get(t.itemId)! });
    return { ...e, id, lineNumber: k + 1 };
  });
  return { entries, items, truth };
}

/** Days either side of a payment's date where a person would look for the invoice it pays. */
const LOOK_AROUND_DAYS = 5;

/**
 * A name line is findable only when no other invoice of the same amount, dated within
 * LOOK_AROUND_DAYS of the true one, belongs to a customer whose name the bank would have printed the
 * same way ("J SIMOES" for João and José Simões): then a person cannot tell either.
 */
function markAmbiguous(
  entries: MatchEntry[],
  items: ExpectedItem[],
  truth: Map<string, Truth>,
  printedAs: Map<number, { print: Print; clean: string; item: ExpectedItem }>,
): void {
  const byAmountAndInitial = new Map<string, ExpectedItem[]>();
  const key = (item: ExpectedItem) => `${item.amountCents} ${ascii(item.counterpartyName ?? '')[0]}`;
  for (const item of items) {
    if (item.type !== 'invoice' || !item.counterpartyName) continue;
    const list = byAmountAndInitial.get(key(item));
    if (list) list.push(item);
    else byAmountAndInitial.set(key(item), [item]);
  }
  for (const [at, { print, clean, item }] of printedAs) {
    const day = Date.parse(item.date!);
    const twin = (byAmountAndInitial.get(key(item)) ?? []).some(
      (other) =>
        other !== item &&
        Math.abs(Date.parse(other.date!) - day) <= LOOK_AROUND_DAYS * 86_400_000 &&
        render(other.counterpartyName!, print) === clean,
    );
    const t = truth.get(entries[at]!.id)!;
    if (twin && t.findable) {
      t.findable = false;
      t.ambiguous = true;
    }
  }
}

/**
 * An MB WAY line printing the phone is findable only when no other customer's invoice of the same
 * amount, dated within LOOK_AROUND_DAYS of the true one, has a phone the bank would mask the same way
 * (the first three and last three digits): then a person cannot tell either (decision 0160).
 */
function markPhonesAlike(
  entries: MatchEntry[],
  items: ExpectedItem[],
  truth: Map<string, Truth>,
  phonedAs: Map<number, ExpectedItem>,
): void {
  const masked = (item: ExpectedItem) => maskedPhone(item.counterpartyPhone!.slice('+351 '.length));
  const byAmountAndMask = new Map<string, ExpectedItem[]>();
  const key = (item: ExpectedItem) => `${item.amountCents} ${masked(item)}`;
  for (const item of items) {
    if (item.type !== 'invoice' || !item.counterpartyPhone) continue;
    const list = byAmountAndMask.get(key(item));
    if (list) list.push(item);
    else byAmountAndMask.set(key(item), [item]);
  }
  for (const [at, item] of phonedAs) {
    const day = Date.parse(item.date!);
    const twin = (byAmountAndMask.get(key(item)) ?? []).some(
      (other) =>
        other.partyId !== item.partyId &&
        Math.abs(Date.parse(other.date!) - day) <= LOOK_AROUND_DAYS * 86_400_000,
    );
    const t = truth.get(entries[at]!.id)!;
    if (twin) {
      t.findable = false;
      t.ambiguous = true;
    }
  }
}
