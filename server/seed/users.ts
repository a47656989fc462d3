import type { UserStatus } from '../../contract/statuses';
import { missingProfessionalFields } from '../../domain/iban';
import type { Queryable } from '../db/client';
import { type Cell, type Column, insertRows, iso, isoDate, textArray, withIndexesDeferred } from './bulk';
import type { FilePools } from './files';
import {
  BACKGROUNDS,
  BANKS,
  corruptIban,
  EMAIL_DOMAINS,
  FEMALE_NAMES,
  INTEREST_AREAS,
  MALE_NAMES,
  mobilePhone,
  nif,
  portugueseIban,
  SURNAMES,
  slug,
  WORKPLACES,
} from './portugal';
import { Rng } from './random';

export interface SeededProfessional {
  id: string;
  status: UserStatus;
  /** No missing data: can be settled and paid (DESIGN.md §6). */
  complete: boolean;
  fullName: string;
  iban: string | null;
  bic: string | null;
  casePriceCents: number;
  subscriptionPriceCents: number;
  shareLinkId: string | null;
}

export interface SeededUsers {
  professionals: SeededProfessional[];
  /** Customers who can have cases (e-mail verified, possibly disabled since). */
  activeCustomerIds: string[];
  disabledUserIds: string[];
  total: number;
}

const DAY = 86_400_000;
const CHUNK = 10_000;
const PROFESSIONAL_SHARE = 0.2;

const USER_COLUMNS: Column[] = [
  { name: 'id', type: 'uuid' },
  { name: 'role', type: 'text' },
  { name: 'email', type: 'text' },
  { name: 'password_hash', type: 'text' },
  { name: 'name', type: 'text' },
  { name: 'full_name', type: 'text' },
  { name: 'gender', type: 'text' },
  { name: 'country', type: 'text' },
  { name: 'birth_date', type: 'date' },
  { name: 'locale', type: 'text' },
  { name: 'email_verified', type: 'boolean' },
  { name: 'professional_verified', type: 'boolean' },
  { name: 'disabled', type: 'boolean' },
  { name: 'admin_data', type: 'jsonb' },
  { name: 'id_card_number', type: 'text' },
  { name: 'college_number', type: 'text' },
  { name: 'phone_number', type: 'text' },
  { name: 'phone_country_code', type: 'text' },
  { name: 'case_price_cents', type: 'int' },
  { name: 'subscription_price_cents', type: 'int' },
  { name: 'current_workplaces', type: 'text[]' },
  { name: 'specialities', type: 'text[]' },
  { name: 'share_link_id', type: 'text' },
  { name: 'referral_name', type: 'text' },
  { name: 'tax_number', type: 'text' },
  { name: 'professional_background', type: 'text' },
  { name: 'college_card_front_file_id', type: 'uuid' },
  { name: 'college_card_back_file_id', type: 'uuid' },
  { name: 'bic_swift', type: 'text' },
  { name: 'iban', type: 'text' },
  { name: 'association_link', type: 'text' },
  { name: 'created_at', type: 'timestamptz' },
  { name: 'last_active_at', type: 'timestamptz' },
];

// Status by position, so even a small seed holds every status in a known proportion.
function professionalStatus(i: number): UserStatus {
  const bucket = i % 20;
  if (bucket < 2) return 'NEW_USER';
  if (bucket < 5) return 'EMAIL_VERIFIED';
  if (bucket < 7) return 'DISABLED';
  return 'PROFESSIONAL_VERIFIED';
}

function customerStatus(i: number): UserStatus {
  const bucket = i % 20;
  if (bucket < 3) return 'NEW_USER';
  if (bucket === 3) return 'DISABLED';
  return 'EMAIL_VERIFIED';
}

// Which piece of payment data is missing, by position (co-prime with the status cycle).
type DataGap = 'tax' | 'iban' | 'invalidIban' | 'college';
const DATA_GAPS: Partial<Record<number, DataGap>> = { 3: 'tax', 9: 'iban', 15: 'invalidIban', 21: 'college' };
function missingData(i: number): DataGap | null {
  return DATA_GAPS[i % 23] ?? null;
}

const CASE_PRICES = [1500, 1500, 1500, 1000, 2000, 2500, 500, 3000, 1600, 0];

export interface UserSeedInput {
  db: Queryable;
  seed: number;
  now: number;
  users: number;
  passwordHash: string;
  pools: FilePools;
}

export async function seedUsers(input: UserSeedInput): Promise<SeededUsers> {
  // The users triggers fill user_search_words (0013): ~3 rows a user, indexed once at the end too.
  return withIndexesDeferred(input.db, 'users', () =>
    withIndexesDeferred(input.db, 'user_search_words', () => insertUsers(input)),
  );
}

async function insertUsers(input: UserSeedInput): Promise<SeededUsers> {
  const { db, now, users } = input;
  const rng = new Rng(input.seed, 'users');
  const professionalCount = Math.max(5, Math.round(users * PROFESSIONAL_SHARE));
  const result: SeededUsers = { professionals: [], activeCustomerIds: [], disabledUserIds: [], total: users };
  let professionalIndex = 0;
  let customerIndex = 0;
  for (let start = 0; start < users; start += CHUNK) {
    const rows: Cell[][] = [];
    for (let n = start; n < Math.min(users, start + CHUNK); n++) {
      // professionals spread through the sequence so any id range holds both roles
      const isProfessional =
        professionalIndex < professionalCount && n % Math.floor(users / professionalCount) === 0;
      const i = isProfessional ? professionalIndex++ : customerIndex++;
      const status = isProfessional ? professionalStatus(i) : customerStatus(i);
      const female = rng.chance(0.55);
      const first = rng.pick(female ? FEMALE_NAMES : MALE_NAMES);
      const middle = rng.pick(SURNAMES);
      const last = rng.pick(SURNAMES);
      const id = rng.uuid();
      const createdAt = now - rng.int(1, 3 * 365) * DAY - rng.int(0, DAY - 1);
      const lastActive =
        status === 'NEW_USER' ? null : Math.min(now - 60_000, createdAt + rng.int(0, 900) * DAY);
      const email = `${slug(first)}.${slug(last)}.${n + 1}@${EMAIL_DOMAINS[n % EMAIL_DOMAINS.length]}`;
      const brazilian = !isProfessional && rng.chance(0.08);
      const common = {
        id,
        email,
        name: `${first} ${last}`,
        fullName: `${first} ${middle} ${last}`,
        gender: female ? 'female' : 'male',
        country: brazilian ? 'BR' : 'PT',
        birthDate: isoDate(now - rng.int(18 * 365, 85 * 365) * DAY),
        locale: rng.chance(0.8) ? 'pt-PT' : 'en-GB',
        phone: brazilian ? `11${rng.digits(9)}` : mobilePhone(rng),
        phoneCode: brazilian ? '+55' : '+351',
        createdAt,
        lastActive,
      };
      if (status === 'DISABLED') result.disabledUserIds.push(id);
      if (isProfessional) {
        const p = professionalRow(rng, i, status, common, input);
        rows.push(p.row);
        result.professionals.push(p.professional);
      } else {
        if (status !== 'NEW_USER') result.activeCustomerIds.push(id);
        rows.push(
          userRow(common, input.passwordHash, 'CUSTOMER', status, {
            tax_number: rng.chance(0.5) ? nif(rng, rng.pick(['1', '2'])) : null,
            id_card_number: rng.chance(0.3) ? rng.digits(8) : null,
            referral_name: rng.chance(0.05) ? rng.pick(SURNAMES) : null,
          }),
        );
      }
    }
    await insertRows(db, 'users', USER_COLUMNS, rows);
  }
  await seedInterestAreas(db, rng, result.professionals);
  return result;
}

interface CommonFields {
  id: string;
  email: string;
  name: string;
  fullName: string;
  gender: string;
  country: string;
  birthDate: string;
  locale: string;
  phone: string;
  phoneCode: string;
  createdAt: number;
  lastActive: number | null;
}

function userRow(
  c: CommonFields,
  passwordHash: string,
  role: 'CUSTOMER' | 'PROFESSIONAL',
  status: UserStatus,
  extra: Record<string, Cell>,
): Cell[] {
  const values: Record<string, Cell> = {
    id: c.id,
    role,
    email: c.email,
    password_hash: passwordHash,
    name: c.name,
    full_name: c.fullName,
    gender: c.gender,
    country: c.country,
    birth_date: c.birthDate,
    locale: c.locale,
    email_verified: status !== 'NEW_USER',
    professional_verified:
      status === 'PROFESSIONAL_VERIFIED' || (role === 'PROFESSIONAL' && status === 'DISABLED'),
    disabled: status === 'DISABLED',
    phone_number: c.phone,
    phone_country_code: c.phoneCode,
    current_workplaces: '{}',
    specialities: '{}',
    created_at: iso(c.createdAt),
    last_active_at: c.lastActive === null ? null : iso(c.lastActive),
    ...extra,
  };
  return USER_COLUMNS.map((column) => values[column.name] ?? null);
}

function professionalRow(
  rng: Rng,
  i: number,
  status: UserStatus,
  c: CommonFields,
  { pools, passwordHash }: Pick<UserSeedInput, 'pools' | 'passwordHash'>,
): { row: Cell[]; professional: SeededProfessional } {
  const gap = missingData(i);
  const bank = rng.pick(BANKS);
  const validIban = portugueseIban(rng, bank.code);
  const iban = gap === 'iban' ? null : gap === 'invalidIban' ? corruptIban(validIban) : validIban;
  const bic = iban && rng.chance(0.85) ? bank.bic : null;
  const taxNumber = gap === 'tax' ? null : nif(rng, rng.pick(['1', '2']));
  const collegeNumber = gap === 'college' ? null : String(rng.int(10_000, 79_999));
  const casePriceCents = rng.pick(CASE_PRICES);
  const shareLinkId =
    status === 'PROFESSIONAL_VERIFIED' ? `${slug(c.name).slice(0, 16)}-${i.toString(36)}` : null;
  const card = pools.collegeCards[i % pools.collegeCards.length]!;
  const specialities = rng.sample(INTEREST_AREAS, rng.int(1, 2));
  const row = userRow(c, passwordHash, 'PROFESSIONAL', status, {
    id_card_number: rng.digits(8),
    college_number: collegeNumber,
    case_price_cents: casePriceCents,
    subscription_price_cents: 4900,
    current_workplaces: textArray(rng.sample(WORKPLACES, rng.int(1, 2))),
    specialities: textArray(specialities),
    share_link_id: shareLinkId,
    tax_number: taxNumber,
    professional_background: rng.pick(BACKGROUNDS),
    college_card_front_file_id: status === 'NEW_USER' ? null : card.front,
    college_card_back_file_id: status === 'NEW_USER' ? null : card.back,
    bic_swift: bic,
    iban,
    association_link: collegeNumber
      ? `https://www.ordemdosmedicos.pt/pesquisa?cedula=${collegeNumber}`
      : null,
  });
  return {
    row,
    professional: {
      id: c.id,
      status,
      complete:
        missingProfessionalFields({ fullName: c.fullName, taxNumber, iban, collegeNumber }).length === 0,
      fullName: c.fullName,
      iban,
      bic,
      casePriceCents,
      subscriptionPriceCents: 4900,
      shareLinkId,
    },
  };
}

async function seedInterestAreas(
  db: Queryable,
  rng: Rng,
  professionals: SeededProfessional[],
): Promise<void> {
  const areaIds = INTEREST_AREAS.map(() => rng.uuid());
  await insertRows(
    db,
    'interest_areas',
    [
      { name: 'id', type: 'uuid' },
      { name: 'name', type: 'text' },
    ],
    INTEREST_AREAS.map((name, i) => [areaIds[i]!, name]),
  );
  const links: Cell[][] = [];
  for (const professional of professionals) {
    for (const areaId of rng.sample(areaIds, rng.int(1, 3))) links.push([professional.id, areaId]);
  }
  await insertRows(
    db,
    'professional_interest_areas',
    [
      { name: 'professional_id', type: 'uuid' },
      { name: 'area_id', type: 'uuid' },
    ],
    links,
  );
}
