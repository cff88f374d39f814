import { z } from 'zod';
import { CreditString } from '../zod-helpers.js';

/** `monitorBilling` of the account (spec 2.2). */
export const MonitorBillingSchema = z.object({
  activeDailyEstimate: CreditString,
  activeHourlyBurn: CreditString,
  creditsPerActiveMonitorDay: CreditString,
  creditsPerActiveMonitorHour: CreditString,
  eventsIncluded: z.boolean(),
  instantCheckIntervalSeconds: z.number().int(),
  unlimitedSlots: z.boolean(),
});

/** `creditInfo` of the account (spec 2.2): balances are bigint strings. */
export const CreditInfoSchema = z.object({
  balance: CreditString,
  lifetimePurchased: CreditString,
  lifetimeUsed: CreditString,
  autoTopupEnabled: z.boolean(),
  autoTopupAmountDollars: z.number(),
  autoTopupThreshold: CreditString,
});

/** The account (spec 2.2). */
export const AccountSchema = z.object({
  plan: z.enum(['active', 'inactive']),
  monitorsUsed: z.number().int(),
  monitorsAllowed: z.number().int().describe('Deprecated: always 9007199254740991, slots are unlimited.'),
  monitorBilling: MonitorBillingSchema,
  creditInfo: CreditInfoSchema.optional(),
  xUsername: z.string().optional(),
});

export const LOCALES = ['en', 'tr', 'es'] as const;

export type Account = z.infer<typeof AccountSchema>;
