import { z } from "zod";
import { DATE_TIME_MAX_LENGTH } from "./access-schemas.js";
import { ApiKey } from "./access-schemas.js";
import { PageLimit, Pet, PetStatus } from "./schemas.js";
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from "./webhook-schemas.js";

/** A position: the opaque text `listEvents` answers in each event and in `Link rel="next"`, and a stream sends as `id:`. */
export const EVENT_POSITION_MAX_LENGTH = 41;
export const EventPosition = z
  .string()
  .min(1)
  .max(EVENT_POSITION_MAX_LENGTH)
  .regex(/^[0-9]+-[0-9]+$/)
  .describe("Where the event stands in the log: an opaque cursor, increasing in the order events become visible.");

/** `pet.updated`'s data: the animal now, and the fields it changed as they were. */
export const PetUpdated = z
  .object({
    pet: Pet,
    previousAttributes: Pet.pick({ name: true, categoryId: true })
      .extend({ status: PetStatus.nullable().describe("The status before; null: it had none.") })
      .partial()
      .describe("The fields the change moved, as they were before it."),
  })
  .describe("What `pet.updated` carries: the animal as changed, and the previous value of each field it changed.");

/** One event of the log: the webhook body's fields (`type`, `timestamp`, `data`) with its `id` and `position`. */
export const Event = z
  .object({
    id: z
      .string()
      .max(64)
      .regex(/^msg_[A-Za-z0-9]+$/)
      .describe("The event's id: the `webhook-id` of its every delivery."),
    position: EventPosition,
    type: WebhookEventType,
    timestamp: z.string().max(DATE_TIME_MAX_LENGTH).datetime({ offset: true }).describe("When it happened."),
    data: z
      .union([Pet, PetUpdated, ApiKey])
      .describe(
        "What changed, as the webhook's `data`: the animal (with `previousAttributes` on `pet.updated`), or the key.",
      ),
  })
  .describe("One event of the log, as a webhook carries it, with its id and position.");
export type Event = z.infer<typeof Event>;

export const Events = z.array(Event).max(100).describe("A page of events, oldest first.");

const positionQuery = (name: string) =>
  z
    .string()
    .max(EVENT_POSITION_MAX_LENGTH, `${name} must be at most ${EVENT_POSITION_MAX_LENGTH} characters`)
    .regex(/^[0-9]+-[0-9]+$/, `${name} must be a position from an event or a Link header`);

export const EVENT_TYPE_LIST = /^[a-z]+\.[a-z_]+(,[a-z]+\.[a-z_]+)*$/;

/** `types`: event types separated by commas; each one of the log's. */
const EventTypeList = z
  .string()
  .max(200, "types must be at most 200 characters")
  .regex(EVENT_TYPE_LIST, `types must be event types separated by commas (${WEBHOOK_EVENT_TYPES.join(",")})`)
  .transform((text, ctx) => {
    const types = text.split(",");
    const unknown = types.filter((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `types must be among ${WEBHOOK_EVENT_TYPES.join(", ")}; not ${unknown.join(", ")}`,
      });
      return z.NEVER;
    }
    return [...new Set(types)] as WebhookEventType[];
  });

export const ListEventsQuery = z
  .object({
    limit: PageLimit,
    after: positionQuery("after").optional(),
    types: EventTypeList.optional(),
  })
  .strip();
export type ListEventsQueryInput = z.input<typeof ListEventsQuery>;

export const StreamEventsQuery = z
  .object({ lastEventId: positionQuery("lastEventId").optional(), types: EventTypeList.optional() })
  .strip();
/** The header an `EventSource` resends on reconnecting; the query's `lastEventId` is for clients that cannot set it. */
export const StreamEventsHeaders = z.object({ "last-event-id": positionQuery("Last-Event-ID").optional() });

const dateTime = z.string().max(DATE_TIME_MAX_LENGTH).datetime({ offset: true });

/** `recoverWebhook`'s window. */
export const RecoverWebhook = z
  .object({
    since: dateTime.describe("From when: events at or after it."),
    until: dateTime.optional().describe("Up to when (default: now)."),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.until !== undefined && Date.parse(value.until) < Date.parse(value.since))
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["until"], message: "until must not be before since" });
  })
  .describe("The window of events to send again.");
export type RecoverWebhook = z.infer<typeof RecoverWebhook>;

export const RecoveredEvents = z
  .object({
    queued: z.number().int().min(0).max(1_000_000_000).describe("How many events were queued to be sent again."),
  })
  .describe("What a recovery queued.");
