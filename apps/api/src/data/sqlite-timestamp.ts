/**
 * Timestamps on SQLite as Prisma writes them (ISO 8601, "+00:00"), so rows read
 * back alike whichever client wrote them; one fixed width, so text order is time order.
 */
export const sqliteTimestamp = (date: Date): string => date.toISOString().replace("Z", "+00:00");
