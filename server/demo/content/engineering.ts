import type { DemoDocument } from './types';

const ORG = ['org'] as const;
const ENGINEERING = ['group:scout:engineering'] as const;

/** Engineering notes: architecture, on-call, incidents and releases (Confluence, some for engineers only). */
export const engineering: DemoDocument[] = [
  {
    id: 'architecture-overview',
    source: 'confluence',
    title: 'Architecture overview',
    objectType: 'Articles',
    fileType: 'html',
    author: 'ben@acme.test',
    acl: ORG,
    modifiedDaysAgo: 18,
    createdDaysAgo: 450,
    body: `# Architecture overview

Acme Scheduler is a web application for clinics: receptionists book appointments, clinicians see their day, and patients receive reminders. This page describes the system as it runs today.

## Components

- **Web app**: a React single-page application served from a CDN.
- **API**: a Node.js service (Fastify) behind a load balancer, three instances per region. It owns all business logic and talks to the database.
- **Database**: PostgreSQL 16 with one primary and two read replicas per region. Patient data never leaves its region.
- **Workers**: the same codebase started in worker mode. They send reminders, run nightly exports and sync calendars, taking jobs from a queue table with SKIP LOCKED.
- **Notifications**: SMS through our messaging provider and email through the mail relay.

## Regions

We run in two regions, EU (Frankfurt) and Canada (Montreal). A clinic's data lives in the region chosen at sign-up. Each region is a full copy of the stack; there is no cross-region traffic for patient data.

## Data flow of a booking

1. The receptionist picks a slot; the web app calls POST /appointments.
2. The API checks the clinician's calendar inside a transaction and inserts the appointment.
3. A reminder job is queued for 24 hours before the appointment.
4. A worker sends the reminder and records the delivery status.

## Where to go next

See the on-call runbook for operating the system, the release process for shipping changes, and the incident postmortems for what has gone wrong before.`,
  },
  {
    id: 'oncall-runbook',
    source: 'confluence',
    title: 'On-call runbook',
    objectType: 'Articles',
    fileType: 'html',
    author: 'dev@acme.test',
    acl: ENGINEERING,
    modifiedDaysAgo: 5,
    createdDaysAgo: 330,
    body: `# On-call runbook

Engineers take turns on call for one week, Monday 10:00 to Monday 10:00. The rotation is in the paging tool. You are paid an on-call allowance for the week and time off in lieu for any night you are woken.

## When you are paged

1. Acknowledge the page within five minutes.
2. Open the incident channel with the bot command and post what you see.
3. Check the dashboards: API error rate, p95 latency, queue depth and database connections.
4. If customers are affected, post a status page update within 15 minutes, even if it only says that we are investigating.

## Common alerts

- **API error rate above 2%**: look at the latest deploy first. Rolling back is always allowed without approval.
- **Reminder queue depth above 5,000**: workers are stuck or slow. Check worker logs, then restart the worker deployment.
- **Database connections above 80%**: usually a long-running query. Find it in the slow-query view and cancel it if it is a report.
- **SMS delivery failures**: check the provider's status page; switch to the backup provider with the feature flag.

## Escalation

If you are stuck for 30 minutes, escalate to the secondary on call. For a full outage, page the engineering lead, Ben Baker, at once.

## After the incident

Write a postmortem within five working days for any incident that affected customers. Use the template in this space.`,
  },
  {
    id: 'release-process',
    source: 'confluence',
    title: 'Release process',
    objectType: 'Articles',
    fileType: 'html',
    author: 'ben@acme.test',
    acl: ORG,
    modifiedDaysAgo: 10,
    createdDaysAgo: 360,
    body: `# Release process

We deploy the API and the web app continuously, several times a day. Mobile apps and anything that changes the database schema follow a slower weekly train.

## Continuous deploys

Every merge to main runs the test suite, builds images and deploys to staging. After the staging smoke tests pass, the change goes to production in both regions, one region at a time, with a ten-minute pause between them. Any engineer can stop the pipeline.

## Feature flags

New behaviour ships behind a feature flag, off by default. Turn it on for the internal clinic first, then for 10% of clinics, then for everyone. Remove the flag within a month of full rollout.

## Database migrations

Migrations must be backwards compatible with the previous release: add columns before using them, stop using them before dropping them. A migration that locks a large table needs a review from the database owner, Dev Das.

## The weekly train

Mobile releases are cut every Tuesday, tested on Wednesday and submitted to the stores on Thursday. The release manager rotates weekly and writes the release notes.

## Rollbacks

Rolling back is always allowed and never needs approval. Roll back first, investigate second.

## Release notes

Customer-facing changes are listed in the changelog by the release manager, in plain language, every Friday.`,
  },
  {
    id: 'postmortem-reminder-outage',
    source: 'confluence',
    title: 'Postmortem: missed appointment reminders (March)',
    objectType: 'Articles',
    fileType: 'html',
    author: 'dev@acme.test',
    acl: ORG,
    modifiedDaysAgo: 70,
    createdDaysAgo: 75,
    body: `# Postmortem: missed appointment reminders (March)

## Summary

For six hours on a Tuesday in March, about 11,000 appointment reminders in the EU region were not sent. Clinics reported a rise in no-shows the next day. No data was lost or exposed.

## Timeline

- 02:10 A deploy changed how the reminder worker reads its batch size from configuration.
- 02:15 Workers started, read a batch size of zero, and processed no jobs. The queue began to grow.
- 08:05 A clinic called support about missing reminders.
- 08:20 The on-call engineer was paged by support; the queue depth alert had not fired.
- 08:25 Rollback of the deploy. Workers began draining the queue.
- 09:30 The backlog was sent. Reminders for appointments that had already passed were dropped.

## Root cause

The configuration loader returned zero for a missing value instead of failing. The queue depth alert threshold was set per hour, so a slowly growing queue overnight stayed under it.

## What went well

Rollback took five minutes once the problem was known. Support recognised the pattern quickly.

## What we are changing

1. Configuration values are validated at start; a missing value stops the service.
2. The queue depth alert now fires on age of the oldest job (over 15 minutes), not on count.
3. A synthetic clinic books an appointment every ten minutes and checks its reminder arrives.
4. Support can page on call directly from the support tool.`,
  },
  {
    id: 'postmortem-login-latency',
    source: 'confluence',
    title: 'Postmortem: slow logins after the database upgrade',
    objectType: 'Articles',
    fileType: 'html',
    author: 'ben@acme.test',
    acl: ENGINEERING,
    modifiedDaysAgo: 35,
    createdDaysAgo: 38,
    body: `# Postmortem: slow logins after the database upgrade

## Summary

After upgrading the Canada database to PostgreSQL 16, logins took up to eight seconds for two days. Other requests were slightly slower. Nobody was locked out.

## Cause

The upgrade reset table statistics. The planner chose a sequential scan on the sessions table, which has 40 million rows, for the login query. We had run ANALYZE on the main tables after the upgrade but the sessions table was missing from the script.

## Detection

Customers noticed before we did. Our latency alert looks at the p95 of all requests, which barely moved because logins are a small share of traffic.

## Fixes

- Run ANALYZE on every table after an upgrade; the script now lists tables from the catalogue instead of by hand.
- Add per-endpoint latency alerts for login, booking and calendar loading.
- Expire sessions older than 90 days so that the table stays small.

## Lessons

Upgrades are routine but not trivial. The upgrade checklist now includes a comparison of the top twenty query plans before and after.`,
  },
  {
    id: 'postmortem-sms-provider',
    source: 'confluence',
    title: 'Postmortem: SMS provider outage',
    objectType: 'Articles',
    fileType: 'html',
    author: 'dev@acme.test',
    acl: ORG,
    modifiedDaysAgo: 120,
    createdDaysAgo: 125,
    body: `# Postmortem: SMS provider outage

## Summary

Our SMS provider had a regional outage for three hours. Text reminders in Canada failed during that time. Email reminders were unaffected.

## Timeline

The provider's API returned errors from 14:00. Our worker retried each message five times over ten minutes and then marked it failed. The on-call engineer was paged at 14:20 by the delivery failure alert, confirmed the provider's status page, and switched to the backup provider at 14:45 with the feature flag. Failed messages for appointments more than two hours away were re-queued by hand.

## What we are changing

- Switching providers happens automatically when the failure rate passes 20% for five minutes.
- Failed reminders are re-queued automatically after a switch.
- Both providers are tested every day with a message to our own test number.`,
  },
  {
    id: 'coding-guidelines',
    source: 'confluence',
    title: 'Coding guidelines',
    objectType: 'Articles',
    fileType: 'html',
    author: 'ben@acme.test',
    acl: ENGINEERING,
    modifiedDaysAgo: 45,
    createdDaysAgo: 480,
    body: `# Coding guidelines

These are the habits that keep our codebase pleasant. They are short on purpose; the linter and formatter handle the rest.

## Code

- TypeScript everywhere, strict mode on. Types come from the schema; do not write a type twice.
- Name things for what they are. A function that sends a reminder is called sendReminder.
- Comments explain why, not what.
- Small pull requests: under 400 lines when you can.

## Tests

Tests talk to real parts: a real database, real HTTP servers for third parties. Mock only what you do not own and cannot run. A test must be able to fail.

## Reviews

Every change gets one review. Reviewers answer within one working day. Approve when the change is better than what is there, not when it is perfect. Use "nit:" for comments that should not block.

## Errors

Fail loudly at start for bad configuration. In request handlers, return a clear error code and message; never leak stack traces.`,
  },
  {
    id: 'incident-severity-levels',
    source: 'confluence',
    title: 'Incident severity levels',
    objectType: 'Articles',
    fileType: 'html',
    author: 'dev@acme.test',
    acl: ORG,
    modifiedDaysAgo: 100,
    createdDaysAgo: 320,
    body: `# Incident severity levels

We use three levels so that everyone knows how loudly to react.

## SEV1: critical

Clinics cannot book appointments or log in, or patient data may be exposed. Page on call and the engineering lead. Status page update within 15 minutes, then every 30 minutes. Postmortem required.

## SEV2: major

A core feature is degraded for many clinics: reminders delayed by more than an hour, calendar sync failing, the web app slow. Page on call. Status page update within 30 minutes. Postmortem required.

## SEV3: minor

A bug or slowdown affecting a few clinics, with a workaround. Fix during working hours. No status page update unless customers ask.

## Who decides

The on-call engineer sets the level and may raise or lower it at any time. When unsure, choose the higher level.`,
  },
  {
    id: 'api-rate-limits',
    source: 'confluence',
    title: 'Public API rate limits',
    objectType: 'Articles',
    fileType: 'html',
    author: 'ben@acme.test',
    acl: ORG,
    modifiedDaysAgo: 55,
    createdDaysAgo: 250,
    body: `# Public API rate limits

Partners integrate with the Acme Scheduler through our public API. To keep it responsive for everyone we apply rate limits per API key.

## Limits

- 600 requests a minute per key for reads.
- 120 requests a minute per key for writes.
- Bulk export endpoints: 10 requests an hour.

A response over the limit has status 429 and a Retry-After header in seconds. Clients should wait that long before retrying, and back off exponentially if they keep hitting the limit.

## Raising a limit

Partners can ask for higher limits through their account manager. Engineering reviews requests weekly. We prefer webhooks to polling: a partner that polls every few seconds for changes should subscribe to the appointment webhooks instead.`,
  },
  {
    id: 'database-access',
    source: 'confluence',
    title: 'Production database access',
    objectType: 'Articles',
    fileType: 'html',
    author: 'dev@acme.test',
    acl: ENGINEERING,
    modifiedDaysAgo: 22,
    createdDaysAgo: 280,
    body: `# Production database access

Direct access to the production database is rare and always recorded.

## Read access

Engineers on call have read access to the read replicas through the bastion host, with their personal account and hardware key. Every session is logged. Use it to investigate incidents, never for reports or curiosity.

## Write access

Nobody writes to the production database by hand except during an incident, with a second engineer watching and the statement recorded in the incident channel. Data fixes otherwise go through a reviewed migration or an admin console action.

## Requests

To get access, ask in #security with the reason and the time window. Access expires automatically after eight hours.`,
  },
  {
    id: 'q3-engineering-roadmap',
    source: 'gdrive',
    title: 'Engineering roadmap Q3',
    objectType: 'Files',
    fileType: 'gdoc',
    author: 'ben@acme.test',
    acl: ORG,
    modifiedDaysAgo: 14,
    createdDaysAgo: 50,
    body: `# Engineering roadmap Q3

## Themes

1. **Reliability**: no SEV1 incidents, reminder delivery above 99.5%, automatic SMS provider failover.
2. **Waiting lists**: clinics can offer cancelled slots to patients on a waiting list by text message.
3. **Calendar sync v2**: two-way sync with Google and Microsoft calendars, replacing the nightly import.
4. **Faster web app**: first load under two seconds on a clinic's typical connection.

## Staffing

Ben Baker leads calendar sync; Dev Das leads reliability and the database work; the waiting-list feature is shared between the product team and two engineers from the booking team.

## Risks

Calendar sync depends on the providers' webhook quotas. The waiting-list feature needs legal review for consent to text messages in Canada.

## Not this quarter

Native tablet apps and the billing rewrite move to Q4.`,
  },
];
