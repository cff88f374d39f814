import type { SimRow } from '../bulk-insert.js';
import type { Prng } from '../prng.js';
import { COMPANY_NAMES, JOB_TITLES, LOCATIONS } from '../vocabulary.js';
import { idMaker } from './collections.js';
import { DAY, type SeedUser } from './model.js';

const SENIORITY = ['intern', 'entry_level', 'associate', 'mid_senior', 'director', 'executive'] as const;
const FUNCTIONS = ['engineering', 'design', 'marketing', 'sales', 'operations', 'data'] as const;

/**
 * Job listings (spec 2.12) as stored JSON: posted by business accounts (with an `account` block) or
 * imported (with a `company` block); salaries in several currencies; about one in seven closed.
 */
export function generateJobs(
  prng: Prng,
  users: readonly SeedUser[],
  count: number,
  now: number,
): SimRow<'sim_jobs'>[] {
  const rows: SimRow<'sim_jobs'>[] = [];
  const id = idMaker();
  const businesses = users.filter((u) => u.verifiedType === 'business' && !u.suspended);
  for (let i = 0; i < count; i++) {
    const postedAt = now - prng.int(1, 90) * DAY + prng.int(0, DAY);
    const jobId = id(postedAt);
    const title = prng.pick(JOB_TITLES);
    const locationType = prng.pick(['onsite', 'remote', 'hybrid'] as const);
    const employmentType = prng.weighted(
      ['full_time', 'full_time_contract', 'part_time', 'contract_to_hire'],
      [7, 1, 1, 1],
    );
    const seniorityLevel = title.startsWith('Intern') ? 'intern' : prng.pick(SENIORITY.slice(1));
    const hourly = employmentType === 'part_time';
    const currency = prng.weighted(['USD', 'EUR', 'GBP', 'TRY'], [6, 2, 1, 1]);
    const salaryMin = hourly ? prng.int(18, 60) : prng.int(40, 180) * 1_000;
    const salaryMax = hourly ? salaryMin + prng.int(5, 30) : salaryMin + prng.int(10, 80) * 1_000;
    const symbol = { USD: '$', EUR: '€', GBP: '£', TRY: '₺' }[currency] ?? '';
    const paragraphs = [
      `We are looking for a ${title} to join our team.`,
      'You will work with a small, senior team and ship to millions of users.',
      'We offer flexible hours, a learning budget and good coffee.',
    ];
    const account = businesses.length && i % 3 !== 2 ? prng.pick(businesses) : undefined;
    const job: Record<string, unknown> = {
      id: jobId,
      url: `https://x.com/jobs/${jobId}`,
      title,
      applyUrl: `https://careers.example.com/apply/${jobId}`,
      location: locationType === 'remote' ? 'Remote' : prng.pick(LOCATIONS),
      locationType,
      employmentType,
      seniorityLevel,
      jobFunction: prng.pick(FUNCTIONS),
      team: prng.pick(['Platform', 'Growth', 'Core', 'Infrastructure', 'Brand']),
      postedAt: new Date(postedAt).toISOString(),
      formattedSalary: `${symbol}${salaryMin.toLocaleString('en-US')} - ${symbol}${salaryMax.toLocaleString('en-US')}${hourly ? '/hr' : '/yr'}`,
      salaryMin,
      salaryMax,
      salaryCurrencyCode: currency,
      salaryInterval: hourly ? 'hourly' : 'annually',
      featured: prng.chance(0.1),
      shortDescription: paragraphs[0],
      description: paragraphs.join('\n'),
      descriptionMarkdown: `## ${title}\n\n${paragraphs.join('\n\n')}\n\n- Flexible hours\n- Learning budget`,
    };
    if (account) {
      job.account = {
        id: account.id,
        username: account.username,
        name: account.name,
        verified: account.verified,
        verifiedType: account.verifiedType,
        ...(account.description && { description: account.description }),
        profilePicture: account.profilePicture,
        profileImageShape: 'Square',
      };
    } else {
      const name = prng.pick(COMPANY_NAMES);
      job.company = {
        id: String(prng.int(1e6, 9e6)),
        name,
        logoUrl: `https://logo.example.com/${name.toLowerCase().replace(/\W+/g, '-')}.png`,
      };
    }
    rows.push({ id: jobId, data: JSON.stringify(job), closed: prng.chance(0.15) ? 1 : 0 });
  }
  return rows;
}
