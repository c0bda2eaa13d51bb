import type { DemoDocument } from './types';

const ORG = ['org'] as const;

/** Support articles (Confluence help centre drafts and Drive docs) and verified answers. */
export const support: DemoDocument[] = [
  {
    id: 'reset-clinic-password',
    source: 'confluence',
    title: 'Support: resetting a clinic user’s password',
    objectType: 'Articles',
    fileType: 'html',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 19,
    createdDaysAgo: 260,
    body: `# Support: resetting a clinic user's password

Clinic staff often call when they are locked out. We never set or read a password for them; we help them reset it themselves.

## Steps

1. Confirm who is calling: ask for their work email and the clinic's name, then check the caller's phone number against the clinic record.
2. In the admin console, open the clinic and find the user. Check the account is active and not locked by too many attempts.
3. Click "Send reset link". The link is valid for 30 minutes.
4. If the email does not arrive, check the clinic's mail filter settings; many clinics block external links. Offer to send the link to the clinic owner instead.

## Locked accounts

Ten failed attempts lock an account for one hour. Support can unlock it early once the caller is verified.

## Two-factor problems

If a user has lost their phone, the clinic owner must confirm the request in writing before we remove two-factor authentication. Log the request in the ticket.`,
  },
  {
    id: 'reminder-troubleshooting',
    source: 'confluence',
    title: 'Support: patients are not receiving reminders',
    objectType: 'Articles',
    fileType: 'html',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 11,
    createdDaysAgo: 240,
    body: `# Support: patients are not receiving reminders

The most common support ticket. Work through these checks in order.

## Checks

1. **Is the patient's phone number valid?** Numbers must include the country code. The patient record shows a warning icon for numbers the SMS provider rejected.
2. **Has the patient opted out?** A patient who replied STOP does not receive texts. The patient record shows "SMS opted out"; only the patient can opt back in by texting START.
3. **Are reminders turned on for the appointment type?** Clinics can turn reminders off per appointment type in Settings → Reminders.
4. **Was the appointment booked less than 24 hours ahead?** Reminders are sent 24 hours before; later bookings get a confirmation instead.
5. **Is there an incident?** Check #incidents and the status page.

## Delivery report

The reminder log on each appointment shows every attempt with the provider's delivery status. "Delivered" means the carrier accepted the message; a patient who still says they did not get it should check their phone's spam filter.

## Escalation

If several patients of the same clinic are affected and none of the checks explains it, open a bug for the on-call engineer with three example appointments.`,
  },
  {
    id: 'billing-faq',
    source: 'gdrive',
    title: 'Billing FAQ for support',
    objectType: 'Files',
    fileType: 'gdoc',
    author: 'admin@acme.test',
    acl: ORG,
    modifiedDaysAgo: 26,
    createdDaysAgo: 210,
    body: `# Billing FAQ for support

## When are clinics billed?

On the first of each month, in advance, for the number of clinicians active on that day. Annual plans are billed once a year on the anniversary of the contract.

## Can a clinic get a refund?

Monthly plans: no refunds for the current month, but cancelling stops the next invoice. Annual plans: a pro-rated refund in the first 30 days only. Anything else needs approval from finance.

## How do clinics change their card?

In Settings → Billing. Support cannot see or change card details.

## Why did the invoice go up?

Usually because clinicians were added. The invoice lists each clinician. Price changes are always announced two months ahead.

## VAT and tax numbers

Clinics add their tax number in Settings → Billing; it appears on the next invoice. We cannot reissue past invoices with a new tax number unless finance approves.`,
  },
  {
    id: 'calendar-sync-help',
    source: 'confluence',
    title: 'Support: connecting Google or Microsoft calendars',
    objectType: 'Articles',
    fileType: 'html',
    author: 'ben@acme.test',
    acl: ORG,
    modifiedDaysAgo: 6,
    createdDaysAgo: 90,
    body: `# Support: connecting Google or Microsoft calendars

Clinicians can show their Acme appointments in their own calendar and block out personal events.

## Connecting

Each clinician connects their own calendar in Profile → Calendar sync, choosing Google or Microsoft. The clinic owner cannot connect a calendar on someone else's behalf.

## What syncs

With calendar sync v2, appointments appear in the personal calendar within a minute, and personal events block the matching time in Acme. Only the time is shared with Acme, never the title or attendees of personal events.

## Common problems

- **Events appear twice**: the clinician connected both the old nightly import and v2. Disconnect the old import in Profile → Integrations.
- **Microsoft calendar stops updating after a few days**: the subscription renewal failed. Ask the clinician to reconnect; engineering has an alert for this and is fixing it.
- **Wrong time zone**: check the clinic's time zone in Settings → Clinic, and the clinician's own calendar time zone.`,
  },
  {
    id: 'data-export-help',
    source: 'confluence',
    title: 'Support: exporting clinic data',
    objectType: 'Articles',
    fileType: 'html',
    author: 'dev@acme.test',
    acl: ORG,
    modifiedDaysAgo: 48,
    createdDaysAgo: 300,
    body: `# Support: exporting clinic data

Clinics own their data and can export it at any time.

## What the clinic owner can export

From Settings → Data, the owner can export patients, appointments and clinician schedules as CSV files. Exports run overnight and a download link is emailed to the owner; it expires after seven days.

## Leaving Acme

When a clinic cancels, we keep its data for 90 days so that it can change its mind or export. After 90 days the data is deleted from production and from backups within a further 35 days.

## Requests from patients

A patient who asks for their data should contact the clinic, which is the data controller. Support does not export patient data for patients directly.`,
  },
  {
    id: 'va-expense-deadline',
    source: 'verified_answers',
    title: 'How long do I have to submit an expense claim?',
    objectType: 'Answers',
    fileType: 'md',
    author: 'admin@acme.test',
    acl: ORG,
    modifiedDaysAgo: 12,
    createdDaysAgo: 100,
    body: `# How long do I have to submit an expense claim?

Submit expense claims within **30 days** of the purchase, with a photo of the receipt and the cost centre. Your manager approves within five working days and finance pays approved claims with the next payroll run on the 25th. Claims older than 90 days are not paid except in exceptional cases agreed with finance.

Source: the expense policy in the handbook.`,
  },
  {
    id: 'va-hotel-limit',
    source: 'verified_answers',
    title: 'What is the hotel limit when travelling?',
    objectType: 'Answers',
    fileType: 'md',
    author: 'admin@acme.test',
    acl: ORG,
    modifiedDaysAgo: 30,
    createdDaysAgo: 110,
    body: `# What is the hotel limit when travelling?

Up to **160 euros a night** in most cities and **220 euros a night** in London, Paris, New York, San Francisco and Zurich. Book through the travel tool at least 14 days ahead when you can. If you feel unsafe at a hotel, leave and book another one; Acme covers it.

Source: the travel policy.`,
  },
  {
    id: 'va-pto-days',
    source: 'verified_answers',
    title: 'How many days of PTO do I get?',
    objectType: 'Answers',
    fileType: 'md',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 8,
    createdDaysAgo: 120,
    body: `# How many days of PTO do I get?

Full-time employees get **27 days** of paid time off a year plus the public holidays of their country, accrued monthly. Up to five unused days carry over and must be used by the end of March. After four years at Acme you get two extra days a year. Sick days are separate and do not count as PTO.

Source: the PTO policy.`,
  },
  {
    id: 'va-rollback-approval',
    source: 'verified_answers',
    title: 'Do I need approval to roll back a deploy?',
    objectType: 'Answers',
    fileType: 'md',
    author: 'ben@acme.test',
    acl: ORG,
    modifiedDaysAgo: 10,
    createdDaysAgo: 95,
    body: `# Do I need approval to roll back a deploy?

No. Rolling back is always allowed and never needs approval: roll back first, investigate second. During a deploy freeze, rollbacks and SEV1 fixes are the only changes allowed.

Source: the release process and the on-call runbook.`,
  },
  {
    id: 'va-lost-laptop',
    source: 'verified_answers',
    title: 'What do I do if I lose my laptop?',
    objectType: 'Answers',
    fileType: 'md',
    author: 'dev@acme.test',
    acl: ORG,
    modifiedDaysAgo: 20,
    createdDaysAgo: 140,
    body: `# What do I do if I lose my laptop?

Report it in **#security within one hour**, even outside working hours. IT locks and wipes the device remotely; because laptops are encrypted, the data on it is safe. Then change the password of your password manager and tell IT where you last had it. A replacement is shipped within two working days.

Source: the information security policy.`,
  },
  {
    id: 'it-laptop-setup',
    source: 'gdrive',
    title: 'IT: setting up your laptop',
    objectType: 'Files',
    fileType: 'gdoc',
    author: 'dev@acme.test',
    acl: ORG,
    modifiedDaysAgo: 42,
    createdDaysAgo: 230,
    body: `# IT: setting up your laptop

Your laptop arrives enrolled in device management. Follow these steps on day one.

## Steps

1. Sign in with your Google Workspace account; the laptop applies encryption and the security settings automatically.
2. Install the password manager from the company app store and create your vault.
3. Set up two-factor authentication with the authenticator app or your hardware key for Google, Slack and GitHub.
4. Install the VPN client. You only need it for the admin console and internal dashboards.
5. Join #help and #security in Slack.

## Software

Install software from the company app store. Anything else needs a request in #help with what it is for; IT checks its security before approving it.

## Problems

Ask in #help. For a lost or stolen laptop, follow the security policy and report in #security within one hour.`,
  },
  {
    id: 'sales-playbook',
    source: 'gdrive',
    title: 'Sales playbook: dental clinics',
    objectType: 'Files',
    fileType: 'gdoc',
    author: 'admin@acme.test',
    acl: ORG,
    modifiedDaysAgo: 65,
    createdDaysAgo: 160,
    body: `# Sales playbook: dental clinics

Dental clinics are our fastest-growing segment. This playbook collects what works.

## Who buys

The practice manager chooses and the owner signs. Clinicians care about their day view and about reminders that reduce no-shows.

## The pitch

Lead with no-shows: clinics that turn on reminders see no-shows fall from about 12% to 5% in three months. Show the waiting list next; dental clinics have many short cancellations.

## Objections

- "We already have practice-management software": we integrate with the three most common systems and replace only the calendar.
- "Patients don't like texts": patients can choose email, and can opt out by replying STOP.
- "Price": compare the monthly price with the cost of two missed appointments.

## Trials

Offer a 30-day trial with reminders switched on from day one, and book a check-in call in week two.`,
  },
  {
    id: 'marketing-brand-guidelines',
    source: 'gdrive',
    title: 'Brand guidelines',
    objectType: 'Files',
    fileType: 'pdf',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 200,
    createdDaysAgo: 520,
    body: `# Brand guidelines

## Voice

Acme sounds calm, clear and kind, like a good receptionist on a busy morning. We write short sentences, avoid jargon and never blame the reader.

## Name

Write "Acme" and "Acme Scheduler". Never "ACME" in capitals, and never "the Acme".

## Colours

Our primary colour is deep teal, used for buttons and links. Coral is for highlights only. Text is near-black on white.

## Logo

Leave clear space around the logo equal to the height of the letter A. Do not stretch, recolour or put it on busy photos.

## Photography

Real clinics and real people, with permission. No stock photos of stethoscopes.`,
  },
  {
    id: 'customer-support-hours',
    source: 'notion',
    title: 'Customer support hours and channels',
    objectType: 'Articles',
    fileType: 'md',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 21,
    createdDaysAgo: 270,
    body: `# Customer support hours and channels

## Hours

Support is staffed from 07:00 Lisbon time to 19:00 Toronto time on weekdays, which covers clinic hours in Europe and North America. On weekends one specialist covers urgent tickets from 09:00 to 17:00 in each region.

## Channels

- In-app chat, answered within 15 minutes during staffed hours.
- Email, answered within four working hours.
- Phone, for clinics on the Clinic Plus plan.

## Urgent issues

If a clinic cannot book appointments, support pages the on-call engineer directly from the support tool, whatever the hour.

## Targets

We aim for a satisfaction score above 95% and a first-response time under 15 minutes in chat. The support lead publishes both every Monday in #support.`,
  },
  {
    id: 'okrs-h2',
    source: 'gdrive',
    title: 'Company OKRs: second half',
    objectType: 'Files',
    fileType: 'gsheet',
    author: 'admin@acme.test',
    acl: ORG,
    modifiedDaysAgo: 13,
    createdDaysAgo: 45,
    body: `# Company OKRs: second half

## Objective 1: clinics love their mornings

- Key result: no-show rate across all clinics below 6%.
- Key result: waiting lists generally available and used by 30% of clinics.
- Key result: satisfaction score above 95% every month.

## Objective 2: a product clinics can rely on

- Key result: zero SEV1 incidents.
- Key result: reminder delivery above 99.5%.
- Key result: first load of the web app under two seconds at p75.

## Objective 3: grow sustainably

- Key result: 400 new clinics.
- Key result: net revenue retention above 110%.
- Key result: hire six people, each with a completed onboarding plan in their first month.`,
  },
];
