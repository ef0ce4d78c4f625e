-- Written by hand (no change to the models: prisma migrate diff has nothing to emit).
-- TRUNCATE fires no row trigger, so the FOR EACH ROW trigger of 0004_staff_access let the
-- activity log be emptied, by the API's own user too, which owns the table. A statement
-- trigger refuses it with the same function and message as UPDATE and DELETE.
-- SQLite has no TRUNCATE, and its DELETE trigger already refuses emptying the table there.
-- No semicolon may appear in this file outside statement ends (see 0004_staff_access).
CREATE TRIGGER "AuditEvent_no_truncate" BEFORE TRUNCATE ON "AuditEvent"
  FOR EACH STATEMENT EXECUTE FUNCTION "AuditEvent_append_only"();
