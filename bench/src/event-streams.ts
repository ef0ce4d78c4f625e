/**
 * Open event streams in the bench (`GET /v1/events/stream`, the event log's Server-Sent Events): STREAMS
 * clients in this process, each on its own connection, counting the events they receive. cpu.ts --streams
 * alternates createPet slices with them open and with none (the server's CPU per create either way), and
 * reports the events per second the server fanned out to all of them during the open slices.
 */
import http from "node:http";

/** Streams open for cpu.ts --streams. */
export const STREAMS = 100;

export interface OpenStreams {
  /** Events received so far, over every stream. */
  readonly received: number;
  close(): void;
}

/** Opens `count` streams to `baseUrl` with `apiKey`; resolves once every one has its answer's headers (200). */
export async function openStreams(baseUrl: string, apiKey: string, count: number): Promise<OpenStreams> {
  const url = new URL("/v1/events/stream?types=pet.created", baseUrl);
  const requests: http.ClientRequest[] = [];
  let received = 0;
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          const request = http.get(
            url,
            { agent: false, headers: { Authorization: `Bearer ${apiKey}` } },
            (response) => {
              if (response.statusCode !== 200) return reject(new Error(`streamEvents answered ${response.statusCode}`));
              response.setEncoding("utf8");
              // One `data:` line per event; a chunk never splits "\ndata: " across its end more than once per event.
              let tail = "";
              response.on("data", (chunk: string) => {
                const text = tail + chunk;
                received += text.split("\ndata: ").length - 1;
                tail = text.slice(-6);
              });
              resolve();
            },
          );
          request.on("error", (error) => (requests.includes(request) ? undefined : reject(error)));
          requests.push(request);
        }),
    ),
  );
  return {
    get received() {
      return received;
    },
    close() {
      for (const request of requests) request.destroy();
    },
  };
}
