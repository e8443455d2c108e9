import type { Reader } from './modules/events/index.ts';
import { notificationsReader } from './modules/notifications/index.ts';
import { previewsReader } from './modules/previews/index.ts';
import { searchReader } from './modules/search/index.ts';

/**
 * Every reader of the activity record that works in passes (ADR 0027), each declared in its module:
 * app.ts wakes them when a change they read is heard and stops them on close; jobs.ts runs each
 * one's catch-up job. (The live stream reads the record per browser and catches up by replay.)
 */
export const readers: readonly Reader[] = [notificationsReader, searchReader, previewsReader];
