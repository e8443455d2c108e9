/** The activity record every change is written to, and its announcement to every instance (ADR 0027). */
export {
  activitySince,
  EventHub,
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
