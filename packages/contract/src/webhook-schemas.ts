import { z } from "zod";
import { DATE_TIME_MAX_LENGTH } from "./access-schemas.js";
import {
  decimalInteger,
  MAX_ID,
  NAME_CHARACTERS_MESSAGE,
  NAME_MAX_LENGTH,
  NAME_PATTERN,
  PageLimit,
  positiveSafeInteger,
} from "./schemas.js";

const dateTime = z.string().max(DATE_TIME_MAX_LENGTH).datetime({ offset: true });
/** A sentence the API writes (why an endpoint was disabled, why an attempt failed): no control characters. */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const SENTENCE = /^[^\u0000-\u001f\u007f]*$/;
/** The start of a receiver's answer, as text: anything but NUL (the sender writes U+FFFD for it). */
// eslint-disable-next-line no-control-regex -- refusing NUL is the point
const ANSWER = /^[^\u0000]*$/;

/** The event types an endpoint may subscribe to. `webhook.test` is sent by sendTestEvent only. */
export const WebhookEventType = z
  .enum(["pet.created", "pet.updated", "pet.deleted", "pet.restored", "key.created", "key.revoked"])
  .describe("An event type an endpoint may subscribe to.");
export type WebhookEventType = z.infer<typeof WebhookEventType>;
export const WEBHOOK_EVENT_TYPES = WebhookEventType.options;
/** Every type a delivery may carry: the subscribable ones, and `webhook.test`. */
export const DeliveryEventType = z
  .enum(["pet.created", "pet.updated", "pet.deleted", "pet.restored", "key.created", "key.revoked", "webhook.test"])
  .describe("The event's type.");

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;
/** `whsec_` and the base64 of 24 random bytes. */
export const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;

export const WebhookId = positiveSafeInteger("webhookId");
export const WebhookIdParams = z.object({ webhookId: decimalInteger("webhookId", positiveSafeInteger("webhookId")) });
export const DeliveryIdParams = z.object({
  webhookId: decimalInteger("webhookId", positiveSafeInteger("webhookId")),
  deliveryId: decimalInteger("deliveryId", positiveSafeInteger("deliveryId")),
});

const WebhookUrl = z
  .string({ required_error: "url is required", invalid_type_error: "url must be a string" })
  .max(WEBHOOK_URL_MAX_LENGTH, `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`)
  .url("url must be an absolute URL")
  .describe(
    "Where events are POSTed: https:// (http:// only where the API allows it); its host must resolve to a public address.",
  );

/** The name rule's characters, up to 200 of them. */
const WebhookDescription = z
  .string({ invalid_type_error: "description must be a string" })
  .trim()
  .max(WEBHOOK_DESCRIPTION_MAX_LENGTH, `description must be at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters`)
  .regex(NAME_PATTERN, NAME_CHARACTERS_MESSAGE.replace(/^name/, "description"))
  .describe("What the endpoint is for, shown in lists.");

const EventTypes = z
  .array(WebhookEventType)
  .max(WEBHOOK_EVENT_TYPES.length * 2)
  .describe("The event types sent to it; empty: every type.");

/** A webhook endpoint as listed: never its secret, only the secret's first 10 characters. */
export const Webhook = z
  .object({
    id: WebhookId,
    url: z.string().max(WEBHOOK_URL_MAX_LENGTH).url(),
    description: z.string().max(WEBHOOK_DESCRIPTION_MAX_LENGTH).regex(NAME_PATTERN).nullable(),
    eventTypes: EventTypes,
    enabled: z.boolean(),
    /** Why the API disabled it (a 410 Gone, or 5 days of nothing but failures); null otherwise. */
    disabledReason: z.string().max(500).regex(SENTENCE).nullable(),
    createdAt: dateTime,
    /** The creating key's name. */
    createdBy: z.string().max(NAME_MAX_LENGTH).regex(NAME_PATTERN),
    secretPrefix: z
      .string()
      .max(10)
      .regex(/^whsec_[A-Za-z0-9+/]{4}$/),
  })
  .describe("A webhook endpoint.");
export type Webhook = z.infer<typeof Webhook>;
export const WEBHOOKS_MAX = 100;
export const Webhooks = z.array(Webhook).max(WEBHOOKS_MAX).describe("Every webhook endpoint, newest first.");

export const NewWebhook = z
  .object({
    url: WebhookUrl,
    description: WebhookDescription.optional(),
    eventTypes: EventTypes.optional(),
  })
  .strip();
export type NewWebhook = z.infer<typeof NewWebhook>;

export const WebhookChanges = z
  .object({
    url: WebhookUrl.optional(),
    description: WebhookDescription.nullable().optional(),
    eventTypes: EventTypes.optional(),
    enabled: z.boolean({ invalid_type_error: "enabled must be true or false" }).optional(),
  })
  .strip();
export type WebhookChanges = z.infer<typeof WebhookChanges>;

/** An endpoint and its signing secret: answered at creation and rotation only. */
export const WebhookWithSecret = z
  .object({
    webhook: Webhook,
    secret: z.string().max(40).regex(WEBHOOK_SECRET).describe("The signing secret, shown this once."),
  })
  .describe("A webhook endpoint and its signing secret.");
export type WebhookWithSecret = z.infer<typeof WebhookWithSecret>;

export const DELIVERY_ANSWER_MAX_LENGTH = 1024;
export const DeliveryAttempt = z.object({
  at: dateTime,
  statusCode: z.number().int().min(100).max(599).nullable(),
  error: z.string().max(500).regex(SENTENCE).nullable(),
  durationMs: z.number().int().min(0).max(3_600_000),
  answer: z.string().max(DELIVERY_ANSWER_MAX_LENGTH).regex(ANSWER),
});
export const DeliveryStatus = z.enum(["pending", "succeeded", "failed"]).describe("Where the delivery stands.");
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

/** One event sent (or to be sent) to one endpoint, with its attempts. */
export const Delivery = z
  .object({
    id: positiveSafeInteger("id"),
    webhookId: WebhookId,
    eventId: z
      .string()
      .max(64)
      .regex(/^msg_[A-Za-z0-9]+$/)
      .describe("The `webhook-id` header sent: the same on every attempt."),
    eventType: DeliveryEventType,
    status: DeliveryStatus,
    createdAt: dateTime,
    attempts: z.array(DeliveryAttempt).max(1000),
  })
  .describe("One event for one endpoint, and its attempts.");
export type Delivery = z.infer<typeof Delivery>;
export const Deliveries = z.array(Delivery).max(100).describe("A page of deliveries, newest first.");

export const ListDeliveriesQuery = z
  .object({
    limit: PageLimit,
    after: decimalInteger(
      "after",
      z.number().int().min(1, "after must be at least 1").max(MAX_ID, `after must be at most ${MAX_ID}`),
    ).optional(),
    status: DeliveryStatus.optional(),
  })
  .strip();
export type ListDeliveriesQueryInput = z.input<typeof ListDeliveriesQuery>;
