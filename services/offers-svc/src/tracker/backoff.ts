/**
 * Seconds until the next DescribeChangeSet of a change set that has been polled `polls` times.
 * Never under 2 s (the tracker's bound: at most one poll per 2 s per change set, README "The
 * change-set tracker"); AWS takes minutes
 * to apply a change set and up to an hour to publish, so later polls thin out to one a minute.
 */
const SCHEDULE = [2, 2, 2, 3, 5, 8, 13, 21, 34, 55];
export const MIN_POLL_SECONDS = 2;
export const MAX_POLL_SECONDS = 60;

export function pollDelaySeconds(polls: number): number {
  return Math.max(MIN_POLL_SECONDS, Math.min(MAX_POLL_SECONDS, SCHEDULE[polls] ?? MAX_POLL_SECONDS));
}

/** After a failed poll (throttling, outage, no connector): 5 s doubling to 5 minutes. */
export function errorDelaySeconds(errors: number): number {
  return Math.min(300, 5 * 2 ** Math.min(errors, 6));
}
