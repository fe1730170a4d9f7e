import { newId } from "../ids/new-id.ts";

/** An event id: time-ordered `evt_…` (see newId). Matches `EventId` in contracts/src/ids.ts. */
export const newEventId = (now = Date.now()): string => newId("evt", { timeOrdered: true, now });
