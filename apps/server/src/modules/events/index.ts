/** The activity record every change is written to, its announcement to every instance, and the readers it wakes (ADR 0027). */
export {
  activitySince,
  countRecorded,
  EventHub,
  findRecordedMentions,
  recentActivity,
  record,
  recordAccount,
  recordCreated,
  recordVisit,
  type AccountActivity,
  type AccountActor,
  type HubMessage,
  type LinkVisitor,
  type RecordedChange,
} from './events.ts';
export { announceExpiredAccess, CLOCK_SLACK_SECONDS } from './expiries.ts';
export { reader, startReaders, type Reader } from './readers.ts';
