import type { DemoDocument } from './types';

const ORG = ['org'] as const;

/** The Acme handbook and company policies (Notion and Confluence). */
export const handbook: DemoDocument[] = [
  {
    id: 'welcome-to-acme',
    source: 'notion',
    title: 'Welcome to Acme',
    objectType: 'Articles',
    fileType: 'md',
    author: 'admin@acme.test',
    acl: ORG,
    modifiedDaysAgo: 40,
    createdDaysAgo: 400,
    body: `# Welcome to Acme

Acme builds scheduling software for small clinics. About sixty of us work across three offices (Lisbon, Leeds and Toronto) and a good number of people work fully remote. This page is the front door of the handbook: read it in your first week and come back whenever you are unsure where something lives.

## How we work

We write things down. Decisions, meeting notes and plans go into Notion or Confluence so that someone joining next year can understand why we did what we did. If a conversation in Slack leads to a decision, somebody copies the decision into a page and links the thread.

We default to asynchronous work. Meetings are for discussion and decisions, not for status updates. A status update is a short written post in the team channel on Monday and Thursday.

## Your first week

- Day one: laptop set-up with IT, accounts (Google Workspace, Slack, Notion, Confluence, Jira), and a welcome lunch with your team.
- Day two: read the handbook sections on expenses, travel, security and paid time off.
- Day three to five: pair with your onboarding buddy on a small real task.

## Where to find things

The handbook lives in Notion. Engineering documentation lives in Confluence under the ENG space. Contracts, board material and finance spreadsheets live in Google Drive, in folders that are shared with the people who need them. If you cannot find something, ask Scout or ask in #help.

## Who to ask

People operations is Chloe Chen. Finance and expenses are handled by Ada Admin. Engineering questions go to Ben Baker or Dev Das, or to the #eng channel.`,
  },
  {
    id: 'expense-policy',
    source: 'notion',
    title: 'Expense policy',
    objectType: 'Articles',
    fileType: 'md',
    author: 'admin@acme.test',
    acl: ORG,
    modifiedDaysAgo: 12,
    createdDaysAgo: 380,
    body: `# Expense policy

This policy explains what Acme pays for, how to claim it and how quickly you will be reimbursed. It applies to everyone, including contractors who have expenses written into their agreement.

## What we reimburse

- Travel for work: trains, flights in economy, taxis when public transport is not practical. See the travel policy for booking rules.
- Meals while travelling: up to 45 euros a day, receipts required.
- Equipment: a home-office budget of 600 euros every two years for a chair, desk, monitor or headset.
- Learning: books, courses and conference tickets up to 1,000 euros a year, agreed with your manager beforehand.
- Client entertainment: only when agreed in advance by a member of the leadership team.

## What we do not reimburse

Alcohol outside client dinners, fines and parking tickets, upgrades to business class, personal subscriptions, and anything without a receipt.

## How to claim

1. Photograph the receipt the same day. A card statement is not a receipt.
2. Submit the claim in the expenses tool within 30 days of the purchase, with the project or cost centre.
3. Your manager approves it within five working days.
4. Finance pays approved claims with the next payroll run, on the 25th of the month.

Claims older than 90 days are not paid except in exceptional circumstances agreed with finance.

## Company cards

Team leads hold a company card for recurring software and team events. Card spending follows the same rules, and receipts are due within seven days. Lost cards must be reported in #finance immediately.

## Questions

Ask in #finance or write to Ada Admin.`,
  },
  {
    id: 'travel-policy',
    source: 'notion',
    title: 'Travel policy',
    objectType: 'Articles',
    fileType: 'md',
    author: 'admin@acme.test',
    acl: ORG,
    modifiedDaysAgo: 30,
    createdDaysAgo: 370,
    body: `# Travel policy

Travel is sometimes the best way to build trust with customers and colleagues, and it is also our largest variable cost after salaries. This policy keeps trips safe, comfortable and reasonably priced.

## Before you book

Every trip needs a reason written in one sentence and your manager's approval in the travel channel. Trips longer than five days or outside Europe and North America also need approval from the leadership team.

## Booking

- Book through the travel tool so that we know where you are if something goes wrong.
- Book at least 14 days ahead when you can; late bookings cost on average 40% more.
- Trains are preferred to flights for journeys under five hours.
- Flights are economy. Premium economy is allowed for flights over seven hours.
- Hotels: up to 160 euros a night in most cities, 220 euros in London, Paris, New York, San Francisco and Zurich.

## During the trip

Keep receipts for everything you will claim. Meals follow the expense policy's daily allowance. If a flight is cancelled, rebook through the travel tool's emergency line; you do not need approval for the change.

## Safety

Share your itinerary in the travel tool. If you feel unsafe, leave and book another hotel; we will cover it. The on-call travel line is listed in the travel tool and works at any hour.

## After the trip

File your expenses within 30 days. Write three lines in the trip channel about what came out of the trip, so that others can learn from it.`,
  },
  {
    id: 'security-policy',
    source: 'confluence',
    title: 'Information security policy',
    objectType: 'Articles',
    fileType: 'html',
    author: 'dev@acme.test',
    acl: ORG,
    modifiedDaysAgo: 20,
    createdDaysAgo: 500,
    body: `# Information security policy

Our customers trust us with appointment data from their clinics. Some of it is health information, so security is part of everyone's job, not only the engineering team's.

## Accounts and passwords

- Use the password manager for every work account. Never reuse a password.
- Two-factor authentication is required on Google Workspace, Slack, GitHub and the cloud console. Use a hardware key or the authenticator app; SMS codes are not allowed.
- Never share an account. If a tool needs shared access, ask IT for a service account.

## Devices

Laptops are encrypted and managed by IT. Keep the operating system updated within seven days of a security release. Lock the screen whenever you step away. Report a lost or stolen device in #security within one hour, even outside working hours.

## Data handling

Customer data stays in production systems. Do not download it to your laptop, paste it into documents or send it through chat. Support engineers look at customer records through the admin console, which logs every access. Test environments use generated data only.

## Phishing

If an email asks for credentials, payment or urgency, be suspicious. Forward it to the security mailbox and delete it. Reporting a phishing email that turns out to be harmless is always fine.

## Incidents

If you think something went wrong, say so in #security straight away. Early reports are how we keep small incidents small. Nobody is blamed for reporting in good faith.

## Review

This policy is reviewed every year by the security lead, Dev Das, and approved by the leadership team.`,
  },
  {
    id: 'pto-policy',
    source: 'notion',
    title: 'Paid time off (PTO) policy',
    objectType: 'Articles',
    fileType: 'md',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 8,
    createdDaysAgo: 390,
    body: `# Paid time off (PTO) policy

Rest is part of doing good work. Everyone at Acme has 27 days of paid time off a year plus the public holidays of the country they work in.

## How much

- 27 days of PTO a year, accrued monthly, for full-time employees. Part-time colleagues receive a pro-rated amount.
- Up to five unused days carry over to the next year; they must be used by the end of March.
- After four years at Acme you receive two extra days every year.

## Booking time off

Book in the HR tool at least two weeks ahead for anything longer than three days, and tell your team in its channel. Your manager approves requests within three working days. Around releases, check the release calendar before booking a long break so that your team is not left short.

## Sick leave

Sick days are not PTO. Tell your manager as early as you can on the day. For absences longer than five working days, a doctor's note is needed.

## Parental leave

Primary caregivers receive 20 weeks at full pay and secondary caregivers eight weeks, on top of any statutory leave. Talk to Chloe Chen in people operations as early as you like; it stays confidential.

## Switching off

When you are on leave, set an out-of-office reply, set your Slack status and do not check work messages. If something truly cannot wait, your manager will call you.`,
  },
  {
    id: 'remote-work',
    source: 'notion',
    title: 'Remote and hybrid work',
    objectType: 'Articles',
    fileType: 'md',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 60,
    createdDaysAgo: 300,
    body: `# Remote and hybrid work

About half of Acme works remotely and the rest come to one of our offices two or three days a week. Both are normal; neither is a perk.

## Core hours

Our core hours are 14:00 to 17:00 Lisbon time. Meetings across teams happen in that window so that people in Toronto and Leeds can join. Outside core hours, work when it suits you and your team.

## Home office

The home-office budget in the expense policy covers a chair, a desk, a monitor and a headset. We also pay 30 euros a month towards internet for remote employees, added to payroll.

## Coming together

Each team meets in person at least twice a year. The whole company meets once a year at the Acme summit, usually in Lisbon in October. Travel for these trips follows the travel policy and is always approved.

## Working from another country

You may work from another country for up to 30 days a year. Longer stays have tax and legal consequences, so ask people operations first.

## Communication

Write in public channels by default. Use threads. Turn your camera on in small meetings when you can, and don't worry when you can't.`,
  },
  {
    id: 'code-of-conduct',
    source: 'confluence',
    title: 'Code of conduct',
    objectType: 'Articles',
    fileType: 'html',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 150,
    createdDaysAgo: 600,
    body: `# Code of conduct

We want Acme to be a place where everyone can do their best work. This code applies to every space where we work together: offices, video calls, chat, events and customer sites.

## What we expect

- Be kind and assume good intent. Disagree with ideas, not with people.
- Share credit generously and own your mistakes openly.
- Make room for quieter voices in meetings and in writing.
- Respect people's time, boundaries and time zones.

## What we do not accept

Harassment, discrimination, intimidation, unwelcome sexual attention, and jokes at the expense of someone's identity are never acceptable, whoever is involved, including customers and partners.

## Reporting

If something happens to you or you see it happen, tell your manager, Chloe Chen in people operations, or any member of the leadership team. You can also report anonymously through the form linked in #people. Every report is taken seriously and handled confidentially.

## What happens next

People operations acknowledges a report within two working days, talks to the people involved and decides on action. Retaliation against anyone who reports in good faith is itself a breach of this code.`,
  },
  {
    id: 'benefits-overview',
    source: 'notion',
    title: 'Benefits overview',
    objectType: 'Articles',
    fileType: 'md',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 25,
    createdDaysAgo: 350,
    body: `# Benefits overview

This page summarises the benefits every Acme employee receives. Details vary by country; the local pages in the People section have the exact figures.

## Health

Private health insurance for you and your family, with dental cover in Portugal and Canada. In the United Kingdom we add a cash plan for dental and optical costs.

## Pension

We match pension contributions up to 5% of salary in every country where we employ people.

## Learning

1,000 euros a year for books, courses and conferences, plus two learning days a year to use them.

## Wellbeing

A monthly wellbeing allowance of 40 euros for gyms, sports clubs or therapy apps, and free access to a counselling service.

## Equipment

A laptop of your choice from the approved list, replaced every three years, and the home-office budget described in the expense policy.

## Time off

27 days of paid time off plus public holidays, and generous parental leave. See the PTO policy.`,
  },
  {
    id: 'performance-reviews',
    source: 'notion',
    title: 'How performance reviews work',
    objectType: 'Articles',
    fileType: 'md',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 90,
    createdDaysAgo: 420,
    body: `# How performance reviews work

We run reviews twice a year, in March and September. Their goal is growth: a clear picture of what went well, what to improve and what comes next.

## The cycle

1. Self-review: you write one page on your work of the last six months, linking to the documents and pull requests that show it.
2. Peer feedback: you choose three colleagues who worked closely with you. They answer two questions: what should this person keep doing, and what could they do differently.
3. Manager review: your manager reads everything and writes a summary with a rating on our four-level scale.
4. Conversation: a one-hour meeting to discuss the review and agree goals for the next six months.

## Calibration

Managers meet to compare ratings across teams so that the same work earns the same rating everywhere. Calibration notes are confidential to the leadership team.

## Salary

Salary changes follow the September review and take effect in October. Our salary bands are published in the People section.`,
  },
  {
    id: 'onboarding-checklist',
    source: 'gdrive',
    title: 'New starter onboarding checklist',
    objectType: 'Files',
    fileType: 'gdoc',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 15,
    createdDaysAgo: 200,
    body: `# New starter onboarding checklist

A checklist for managers and onboarding buddies. Copy it for each new starter and tick items off as you go.

## Before day one

- Order the laptop at least ten working days ahead.
- Create accounts: Google Workspace, Slack, Notion, Confluence, Jira, GitHub for engineers.
- Add the new starter to their team channel and to #general, #help and #random.
- Choose an onboarding buddy and book a welcome lunch.

## Week one

- Walk through the handbook: expenses, travel, security and PTO policies.
- Security training and two-factor set-up with IT.
- Meet each member of the team for 30 minutes.
- Give them a small, real first task with a clear owner.

## Month one

- Weekly one-to-ones with their manager.
- A first piece of work shipped or published.
- Feedback on onboarding, collected by people operations.

## Month three

- A short review of the probation period with written goals for the next quarter.`,
  },
];

/** A few more pages of the handbook: offices, training and templates. */
export const handbookExtras: DemoDocument[] = [
  {
    id: 'lisbon-office-guide',
    source: 'notion',
    title: 'Lisbon office guide',
    objectType: 'Articles',
    fileType: 'md',
    author: 'chloe@acme.test',
    acl: ORG,
    modifiedDaysAgo: 50,
    createdDaysAgo: 340,
    body: `# Lisbon office guide

Our largest office is on the fourth floor of a converted warehouse near Cais do Sodré, a five-minute walk from the train and ferry stations.

## Getting in

The building opens at 07:30 and closes at 21:00. Your access card arrives on your first day; until then, reception lets you in. Visitors sign in at reception and wear a badge.

## Desks and rooms

Desks are not assigned. Book a desk in the office app if you want to sit with your team. Meeting rooms are named after Lisbon neighbourhoods; Alfama and Belém have video equipment for calls with Leeds and Toronto.

## Food

There is a kitchen with coffee, tea, fruit and snacks. Team lunch is on Thursdays at 13:00, paid by Acme.

## Quiet

The library corner is for focused work: no calls, no music without headphones.

## Problems

Broken things, heating and cleaning: write in #lisbon-office. For emergencies, call building security, whose number is on every floor.`,
  },
  {
    id: 'security-training',
    source: 'confluence',
    title: 'Annual security training',
    objectType: 'Articles',
    fileType: 'html',
    author: 'dev@acme.test',
    acl: ORG,
    modifiedDaysAgo: 80,
    createdDaysAgo: 410,
    body: `# Annual security training

Everyone completes security training when they join and once a year after that, in January. It takes about 45 minutes.

## What it covers

- Recognising phishing, with examples of real emails sent to Acme staff.
- Handling customer and patient data: what stays in production, and why.
- Passwords, the password manager and two-factor authentication.
- What to do when something goes wrong: reporting in #security, and why early reports matter more than being sure.

## Phishing exercises

Four times a year we send a harmless phishing email to everyone. Clicking it opens a short lesson, never a reprimand. Reporting it to the security mailbox counts as a success.

## Tracking

Completion is tracked in the HR tool. Managers receive a reminder for anyone who has not finished by the end of January. Engineers with production access must finish before their access is renewed.`,
  },
  {
    id: 'postmortem-template',
    source: 'confluence',
    title: 'Postmortem template',
    objectType: 'Articles',
    fileType: 'html',
    author: 'dev@acme.test',
    acl: ORG,
    modifiedDaysAgo: 140,
    createdDaysAgo: 330,
    body: `# Postmortem template

Copy this page for every incident that affected customers. Postmortems are blameless: they describe what the system and the process allowed, not who made a mistake.

## Summary

Two or three sentences: what happened, how long, who was affected, and whether any data was lost or exposed.

## Timeline

Times in UTC, from the first cause to full recovery, including when we noticed and how.

## Root cause

The chain of causes, asking "why" until the answer is something we can change.

## Detection

How we found out, and how we could have found out sooner.

## What went well

Things to keep doing.

## What we are changing

Numbered actions, each with an owner and a date, tracked in Jira with the postmortem label.

## Review

The postmortem is read in the weekly engineering meeting after it is written. Actions are checked there until they are done.`,
  },
];
