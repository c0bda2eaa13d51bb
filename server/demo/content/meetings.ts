import type { DemoDocument } from './types';

const ORG = ['org'] as const;
const LEADERSHIP = ['group:scout:leadership'] as const;

/** Meeting notes and Slack threads; a few private to one person or to the leadership group. */
export const meetings: DemoDocument[] = [
  {
    id: 'all-hands-june',
    source: 'notion',
    title: 'All-hands notes: June',
    objectType: 'Articles',
    fileType: 'md',
    author: 'admin@acme.test',
    acl: ORG,
    modifiedDaysAgo: 28,
    createdDaysAgo: 28,
    body: `# All-hands notes: June

## Company update (Ada)

We signed 48 new clinics in May, our best month so far, and churn stayed under 1%. The Toronto office moves to a larger floor in the same building in August.

## Product (Chloe)

Waiting lists are in beta with twelve clinics. The early numbers are encouraging: on average each clinic filled eight cancelled slots a week that would otherwise have stayed empty. General availability is planned for September.

## Engineering (Ben)

Calendar sync v2 is halfway done. The reminder outage in March led to new alerts and a synthetic clinic; we have not missed a reminder since. Reminder delivery is at 99.7%.

## People (Chloe)

Performance reviews start in September. The summit will be in Lisbon from 14 to 16 October; travel bookings open next month under the normal travel policy.

## Questions

Someone asked whether the home-office budget can cover a standing desk. It can, within the 600 euros every two years.`,
  },
  {
    id: 'leadership-offsite-notes',
    source: 'notion',
    title: 'Leadership offsite notes',
    objectType: 'Articles',
    fileType: 'md',
    author: 'admin@acme.test',
    acl: LEADERSHIP,
    modifiedDaysAgo: 9,
    createdDaysAgo: 11,
    body: `# Leadership offsite notes

Attendees: Ada Admin, Chloe Chen. Confidential to the leadership group.

## Hiring plan

We will hire four engineers and two support specialists in the second half of the year. Budget is approved for six roles; two of them are backfills. The Toronto office takes three of the new roles to cover North American hours.

## Pricing

We will raise the price of the Clinic plan by 8% for new customers from January. Existing customers keep their price for twelve months. Chloe prepares the communication plan; nothing is announced before November.

## Acquisition conversation

A larger practice-management vendor approached us about a partnership that may become an acquisition offer. We agreed to continue talking without commitment. Only the board and this group know.

## Next steps

- Ada: hiring budget to finance by the end of the month.
- Chloe: pricing communication draft.
- Both: reply to the vendor after the board meeting.`,
  },
  {
    id: 'board-update-q2',
    source: 'gdrive',
    title: 'Board update Q2',
    objectType: 'Files',
    fileType: 'gdoc',
    author: 'admin@acme.test',
    acl: LEADERSHIP,
    modifiedDaysAgo: 33,
    createdDaysAgo: 36,
    body: `# Board update Q2

## Headlines

Revenue grew 9% quarter on quarter. Net revenue retention is 112%. Cash covers 26 months at the current burn rate.

## Customers

We added 131 clinics this quarter and lost 11. The largest loss was a group of four clinics that moved to an all-in-one practice-management suite.

## Product

Waiting lists entered beta. Calendar sync v2 is on track for Q3.

## Team

Headcount is 61. We opened six roles for the second half, described in the hiring plan.

## Asks of the board

Introductions to dental clinic groups in Canada, and advice on the partnership conversation described in the confidential appendix.`,
  },
  {
    id: 'ben-1-1-notes',
    source: 'notion',
    title: 'Ben / Ada 1:1 notes',
    objectType: 'Articles',
    fileType: 'md',
    author: 'ben@acme.test',
    acl: ['user:ben@acme.test'],
    modifiedDaysAgo: 3,
    createdDaysAgo: 180,
    body: `# Ben / Ada 1:1 notes

Private notes Ben keeps for his weekly one-to-one with Ada.

## This week

- Calendar sync: Google is done, Microsoft needs another two weeks because of webhook renewal limits.
- I want to hand over the on-call rotation schedule to Dev; he has been running it informally anyway.
- Career: I'd like to move towards a staff engineer role rather than managing a larger team. Ada suggested writing a one-page plan for the September review.

## Feedback I received

Ada said my design reviews are thorough but sometimes arrive late in the process. Try to join the first design discussion, not only the final review.

## To follow up

- Ask about the conference budget for the database conference in November.
- Book a week of PTO in August after the calendar sync launch.`,
  },
  {
    id: 'chloe-hiring-notes',
    source: 'gdrive',
    title: 'Support specialist interview notes',
    objectType: 'Files',
    fileType: 'gdoc',
    author: 'chloe@acme.test',
    acl: ['user:chloe@acme.test'],
    modifiedDaysAgo: 6,
    createdDaysAgo: 20,
    body: `# Support specialist interview notes

Private to Chloe: candidate notes for the support specialist role in Toronto.

## Candidate A

Strong written communication; answered the sample ticket about a missing reminder clearly and kindly. Limited experience with healthcare customers. Recommend a second interview.

## Candidate B

Four years in support for a dental software company. Knows clinic workflows well. Slightly rigid in the role-play when the customer was upset. Recommend a second interview with the support lead.

## Candidate C

Not a fit for the hours: cannot work the late shift.

## Next steps

Second interviews next Tuesday. Reference checks for whoever we choose.`,
  },
  {
    id: 'product-sync-notes',
    source: 'notion',
    title: 'Product sync: waiting lists',
    objectType: 'Articles',
    fileType: 'md',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 16,
    createdDaysAgo: 16,
    body: `# Product sync: waiting lists

Attendees: Chloe, Ben, Dev and two engineers from the booking team.

## Beta feedback

Clinics like that offers go out automatically. Two clinics asked to limit offers to patients who can arrive within an hour; we will add a "notice needed" setting per patient. One clinic saw two patients accept the same slot within seconds; the second patient received a polite "slot already taken" message, which worked, but the wording needs care.

## Decisions

- The first patient to accept gets the slot. No reservations.
- Offers expire after 30 minutes.
- Patients can leave the waiting list by replying STOP.

## Open questions

Consent rules for text messages in Canada need legal review before general availability. Dev will check the SMS provider's throughput for bursts of offers.`,
  },
  {
    id: 'slack-eng-deploy-thread',
    source: 'slack',
    title: '#eng: deploy freeze before the summit',
    objectType: 'Messages',
    fileType: 'message',
    author: 'dev@acme.test',
    acl: ORG,
    modifiedDaysAgo: 2,
    createdDaysAgo: 2,
    body: `# #eng: deploy freeze before the summit

**Dev Das**: Heads-up: we will freeze deploys from Tuesday 13 October at 18:00 until Monday 19 October, while most of us are at the summit. Only rollbacks and SEV1 fixes during the freeze.

**Ben Baker**: Makes sense. Who is on call that week?

**Dev Das**: Me as primary, and one of the Toronto engineers as secondary since they are awake when we are asleep. I will post the schedule in the runbook.

**Ben Baker**: Let's ship calendar sync to 10% of clinics the week before, so we are not watching a fresh rollout from a conference room.

**Dev Das**: Agreed. I'll add it to the release calendar.`,
  },
  {
    id: 'slack-finance-reminder',
    source: 'slack',
    title: '#finance: expense reports due',
    objectType: 'Messages',
    fileType: 'message',
    author: 'admin@acme.test',
    acl: ORG,
    modifiedDaysAgo: 1,
    createdDaysAgo: 1,
    body: `# #finance: expense reports due

**Ada Admin**: Friendly reminder that expense claims for last month close this Friday. Anything submitted after that is paid next month. Please attach receipts as photos, not card statements, and add the cost centre.

**Chloe Chen**: Does the summit deposit count as an expense or does finance pay it directly?

**Ada Admin**: Finance pays the venue and hotel directly. You only claim your own travel and meals, following the travel policy.

**Dev Das**: Is a standing desk ok under the home-office budget?

**Ada Admin**: Yes, within the 600 euros every two years.`,
  },
  {
    id: 'slack-help-vpn',
    source: 'slack',
    title: '#help: VPN keeps disconnecting',
    objectType: 'Messages',
    fileType: 'message',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 4,
    createdDaysAgo: 4,
    body: `# #help: VPN keeps disconnecting

**Chloe Chen**: My VPN disconnects every ten minutes since yesterday's update. Anyone else?

**Dev Das**: Yes, the new client version has a bug with sleep mode on some laptops. Open the VPN settings and turn off "disconnect on sleep", then restart the client.

**Chloe Chen**: That fixed it, thanks!

**Dev Das**: I've added it to the known issues page in the IT space. The vendor says a fix is coming next week.`,
  },
  {
    id: 'slack-leadership-pricing',
    source: 'slack',
    title: '#leadership: pricing announcement timing',
    objectType: 'Messages',
    fileType: 'message',
    author: 'chloe@acme.test',
    acl: LEADERSHIP,
    modifiedDaysAgo: 7,
    createdDaysAgo: 7,
    body: `# #leadership: pricing announcement timing

**Chloe Chen**: Draft of the pricing email is in the leadership folder. I suggest we announce on 3 November, two months before the change, and give account managers a week's notice first.

**Ada Admin**: Good. Let's also prepare answers for the three largest clinic groups, they will ask about the twelve-month guarantee.

**Chloe Chen**: I'll write an FAQ. Keeping this channel-only until the board meeting.`,
  },
  {
    id: 'retro-calendar-sync',
    source: 'confluence',
    title: 'Sprint retrospective: calendar sync',
    objectType: 'Articles',
    fileType: 'html',
    author: 'ben@acme.test',
    acl: ['group:scout:engineering'],
    modifiedDaysAgo: 12,
    createdDaysAgo: 12,
    body: `# Sprint retrospective: calendar sync

## What went well

Pairing on the Google webhook handler saved us a week. The fake Google calendar server we wrote for tests caught three bugs before staging.

## What did not go well

We underestimated Microsoft's subscription renewal: subscriptions expire after three days and must be renewed, which needs a scheduled job we had not planned. Code review waited too long on Fridays.

## Actions

- Dev adds a renewal job with an alert when renewals fail.
- Reviews get a daily slot at 11:00.
- Ben updates the roadmap: Microsoft sync moves two weeks.`,
  },
];
