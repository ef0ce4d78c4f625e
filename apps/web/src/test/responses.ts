import type { ErrorIssue } from "@petstore/contract";

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  issues?: ErrorIssue[],
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(status, { code, message, status, ...(issues ? { issues } : {}) }, headers);
}
