/** Where the admin pages live; the status messages they show belong to these pages. */
export const KEYS_PATH = "/keys";
export const ACTIVITY_PATH = "/activity";
export const WEBHOOKS_PATH = "/webhooks";
export const webhookPath = (webhookId: number) => `${WEBHOOKS_PATH}/${webhookId}`;
