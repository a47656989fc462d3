import { z } from 'zod';
import { emailField } from './common';
import { genderSchema, localeIdSchema, roleSchema, userStatusSchema } from './users';

export const loginBodySchema = z.object({
  email: emailField,
  password: z.string().min(1),
});
/** What the console sends to sign in: the body above before the server lower-cases the e-mail. */
export const credentialsSchema = z.object({ email: z.string(), password: z.string() });

/** The shape the console's session and guards read (`adminData` present = may use the console). */
export const profileSchema = z.object({
  user: z.object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    fullName: z.string().nullable(),
    role: roleSchema,
    gender: genderSchema.nullable(),
    country: z.string().nullable(),
    status: userStatusSchema,
    emailVerified: z.boolean(),
    professionalVerified: z.boolean(),
    userDisabled: z.boolean(),
    created: z.iso.datetime(),
    lastActive: z.iso.datetime().nullable(),
  }),
  hasUser: z.literal(true),
  avatar: z.string().nullable(),
  selectedRole: roleSchema,
  selectedLocale: localeIdSchema,
  status: userStatusSchema,
  adminData: z.record(z.string(), z.unknown()).nullable(),
});

export const loginResultSchema = z.object({ token: z.string(), user: profileSchema });
