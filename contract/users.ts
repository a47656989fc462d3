import { z } from 'zod';
import { dateOrInstant } from './bounds';
import { dropEmpty, pageSchema, repeatable, sortOrderSchema } from './common';
import { USER_SEARCH_MAX } from './limits';
import {
  COUNTED_PROFESSIONAL_STATUSES,
  GENDERS,
  LOCALE_IDS,
  MISSING_PROFESSIONAL_FIELDS,
  ROLES,
  USER_SORTS,
  USER_STATUSES,
} from './statuses';

export const roleSchema = z.enum(ROLES);
export const userStatusSchema = z.enum(USER_STATUSES);
export const genderSchema = z.enum(GENDERS);
export const localeIdSchema = z.enum(LOCALE_IDS);

export const areaRefSchema = z.object({ id: z.guid(), name: z.string() });

/** One row of the users tables (customers, professionals, disabled, awaiting verification). */
export const userSummarySchema = z.object({
  id: z.guid(),
  role: roleSchema,
  name: z.string(),
  fullName: z.string().nullable(),
  email: z.string(),
  status: userStatusSchema,
  gender: genderSchema.nullable(),
  country: z.string().nullable(),
  locale: localeIdSchema,
  phoneNumber: z.string().nullable(),
  phoneNumberCountryCode: z.string().nullable(),
  taxNumber: z.string().nullable(),
  collegeNumber: z.string().nullable(),
  shareLinkId: z.string().nullable(),
  emailVerified: z.boolean(),
  professionalVerified: z.boolean(),
  userDisabled: z.boolean(),
  isAdmin: z.boolean(),
  created: z.iso.datetime(),
  lastActive: z.iso.datetime().nullable(),
  areasOfInterest: z.array(areaRefSchema),
});

export const storedFileSchema = z.object({
  id: z.guid(),
  name: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
  downloadUrl: z.string(),
});

export const auditEntrySchema = z.object({
  id: z.number().int(),
  action: z.string(),
  at: z.iso.datetime(),
  actor: z.object({ id: z.guid(), name: z.string(), email: z.string() }).nullable(),
  before: z.unknown(),
  after: z.unknown(),
});

export const missingFieldSchema = z.enum(MISSING_PROFESSIONAL_FIELDS);

/** Every field of the specification's user table, plus what the single views show beside it. */
export const userDetailSchema = userSummarySchema.extend({
  birthDate: z.iso.date().nullable(),
  idCardNumber: z.string().nullable(),
  casePriceCents: z.number().int().nullable(),
  caseCurrency: z.string(),
  subscriptionPriceCents: z.number().int().nullable(),
  subscriptionCurrency: z.string(),
  currentWorkplaces: z.array(z.string()),
  specialities: z.array(z.string()),
  referralName: z.string().nullable(),
  professionalBackground: z.string().nullable(),
  associationLink: z.string().nullable(),
  avatar: z.string().nullable(),
  collegeCardFrontFile: storedFileSchema.nullable(),
  collegeCardBackFile: storedFileSchema.nullable(),
  bank: z.object({
    iban: z.string().nullable(),
    ibanValid: z.boolean(),
    /** Why the IBAN cannot be paid (`REQUIRED`, `INVALID_CHECKSUM`, `IBAN_NOT_SEPA`, …); null when it can. */
    ibanError: z.string().nullable(),
    bicSwift: z.string().nullable(),
  }),
  /** Professionals only (DESIGN §6): what blocks settling and paying them; null for other roles. */
  missingFields: z.array(missingFieldSchema).nullable(),
  shareLink: z
    .object({ id: z.string(), visits: z.number().int(), signups: z.number().int(), cases: z.number().int() })
    .nullable(),
  adminActions: z.array(auditEntrySchema),
});

export const USER_PAGE_SIZE = { default: 50, max: 200 } as const;

/** `YYYY-MM-DD` is a whole day in Europe/Lisbon (the operators' calendar); a full ISO time is an instant. */
const timeBound = dateOrInstant().optional();

export const userListQuerySchema = z.preprocess(
  dropEmpty,
  z.object({
    q: z.string().trim().max(USER_SEARCH_MAX).optional(),
    role: repeatable(roleSchema),
    status: repeatable(userStatusSchema),
    country: repeatable(z.string().regex(/^[A-Z]{2}$/)),
    gender: repeatable(genderSchema),
    areaOfInterest: repeatable(z.guid()),
    createdFrom: timeBound,
    createdTo: timeBound,
    lastActiveFrom: timeBound,
    lastActiveTo: timeBound,
    sort: z.enum(USER_SORTS).default('created'),
    order: sortOrderSchema.optional(),
    limit: z.coerce.number().int().min(1).max(USER_PAGE_SIZE.max).default(USER_PAGE_SIZE.default),
    cursor: z.string().max(600).optional(),
  }),
);

/** `total` is exact up to 10,000 matches, the planner's estimate beyond (`totalEstimated`). */
export const userPageSchema = pageSchema(userSummarySchema);

export const setDisabledBodySchema = z.object({ disabled: z.boolean() });
export const resendVerificationResultSchema = z.object({ sentTo: z.string() });

export const statusCountsSchema = z.object(
  Object.fromEntries(COUNTED_PROFESSIONAL_STATUSES.map((status) => [status, z.number().int()])) as Record<
    (typeof COUNTED_PROFESSIONAL_STATUSES)[number],
    z.ZodNumber
  >,
);
