import { z } from "zod";
import { defineDemoTool, type DemoTool } from "./types";

const calendarId = z.string().default("primary").describe('Calendar ID; "primary" is the connected user\'s main calendar.');
const dateTime = z.iso.datetime({ offset: true });
const eventId = z.string().describe("Event ID as returned by calendar_list_events.");

export const CALENDAR_TOOLS: DemoTool[] = [
  defineDemoTool({
    name: "calendar_list_events",
    summary: "List calendar events in a time range with title, time, attendees, location and video link.",
    description:
      'Returns events of a calendar between timeMin and timeMax, ordered by start time, with recurring events expanded into single occurrences. Use it to answer "what is on my schedule" questions or to find an event\'s ID before changing it.',
    parameters: {
      calendarId,
      timeMin: dateTime.describe("Start of the range (ISO 8601 with offset)."),
      timeMax: dateTime.describe("End of the range (ISO 8601 with offset)."),
      query: z.string().optional().describe("Only events whose title, description or attendees match this text."),
      maxResults: z.int().min(1).max(250).default(50).describe("Maximum number of events."),
    },
    tags: ["calendar", "scheduling", "read-only"],
  }),
  defineDemoTool({
    name: "calendar_create_event",
    summary: "Create a calendar event or meeting with attendees, location, video conference link and reminders.",
    description:
      "Creates an event and returns its ID and link; attendees receive invitations when sendInvites is true. Check availability with calendar_find_free_time first when scheduling with others. All-day events use start and end dates instead of times.",
    parameters: {
      calendarId,
      title: z.string().min(1).describe("Event title."),
      start: dateTime.describe("Start time (ISO 8601 with offset)."),
      end: dateTime.describe("End time (ISO 8601 with offset); after start."),
      attendees: z.array(z.email()).optional().describe("Email addresses of the people to invite."),
      location: z.string().optional().describe("Room or address."),
      description: z.string().optional().describe("Agenda or notes."),
      addVideoConference: z.boolean().default(false).describe("Attach a video meeting link."),
      recurrence: z.string().optional().describe('RFC 5545 recurrence rule, e.g. "RRULE:FREQ=WEEKLY;BYDAY=MO".'),
      sendInvites: z.boolean().default(true).describe("Email invitations to the attendees."),
    },
    tags: ["calendar", "scheduling", "write"],
  }),
  defineDemoTool({
    name: "calendar_update_event",
    summary: "Reschedule or edit an existing calendar event: change time, title, attendees or location.",
    description:
      "Updates only the given fields of an event. For a recurring event, scope decides whether the change applies to this occurrence only or to this and all following ones. Attendees are notified of time changes when notifyAttendees is true.",
    parameters: {
      calendarId,
      eventId,
      start: dateTime.optional().describe("New start time."),
      end: dateTime.optional().describe("New end time."),
      title: z.string().min(1).optional().describe("New title."),
      addAttendees: z.array(z.email()).optional().describe("People to invite in addition."),
      removeAttendees: z.array(z.email()).optional().describe("People to remove from the invitation."),
      location: z.string().optional().describe("New location."),
      scope: z.enum(["this", "following"]).default("this").describe("For recurring events: which occurrences to change."),
      notifyAttendees: z.boolean().default(true).describe("Email the attendees about the change."),
    },
    tags: ["calendar", "scheduling", "write"],
  }),
  defineDemoTool({
    name: "calendar_delete_event",
    summary: "Cancel and delete a calendar event, optionally notifying its attendees.",
    description:
      "Deletes an event, or one occurrence of a recurring event. When the connected user is the organizer, attendees receive a cancellation. This cannot be undone, so confirm with the user first.",
    parameters: {
      calendarId,
      eventId,
      notifyAttendees: z.boolean().default(true).describe("Send a cancellation email to the attendees."),
    },
    tags: ["calendar", "scheduling", "write", "destructive"],
  }),
  defineDemoTool({
    name: "calendar_find_free_time",
    summary: "Find time slots when all given people are free, within working hours, for scheduling a meeting.",
    description:
      "Compares the busy times of the given people's calendars and returns free slots of at least the requested length between timeMin and timeMax. Slots respect each person's working hours when they are set. People whose calendars are not shared appear as unknown.",
    parameters: {
      attendees: z.array(z.email()).min(1).describe("Email addresses of everyone who must attend."),
      durationMinutes: z.int().min(5).max(480).describe("Length of the meeting in minutes."),
      timeMin: dateTime.describe("Earliest start to consider."),
      timeMax: dateTime.describe("Latest end to consider."),
      timeZone: z.string().default("UTC").describe('IANA time zone for the results, e.g. "Europe/Berlin".'),
    },
    tags: ["calendar", "scheduling", "read-only"],
  }),
];
