import type { NewPet, Pet } from "@petstore/contract";
import { jsonResponse } from "./render-app.js";

/** What the fake API does to one create instead of answering it normally (or which headers it adds to the 201). */
export type Fault = Response | "network down" | "answer lost" | { headers: Record<string, string> } | undefined;

/**
 * An API that saves each create, replays a key it has seen (as the real one
 * does), and lists what it saved. `fault` may step in: answer otherwise,
 * fail before saving ("network down"), or save and lose the answer.
 */
export function fakePetStore(fault: (pet: NewPet, attempt: number) => Fault = () => undefined) {
  const saved = new Map<string, Pet>();
  const attempts = new Map<string, number>();
  let inFlight = 0;
  const store = {
    saved,
    mostInFlight: 0,
    handler: async (request: Request): Promise<Response> => {
      if (request.method !== "POST") return jsonResponse(200, [...saved.values()]);
      const key = request.headers.get("idempotency-key") ?? "";
      const pet = (await request.json()) as NewPet;
      const attempt = (attempts.get(pet.name) ?? 0) + 1;
      attempts.set(pet.name, attempt);
      inFlight++;
      store.mostInFlight = Math.max(store.mostInFlight, inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, 5));
        const planned = fault(pet, attempt);
        if (planned instanceof Response) return planned;
        if (planned === "network down") throw new TypeError("Failed to fetch");
        const replay = saved.get(key);
        if (replay) return jsonResponse(201, replay, { "Idempotent-Replayed": "true" });
        const created: Pet = { id: saved.size + 1, ...pet };
        saved.set(key, created);
        if (planned === "answer lost") throw new TypeError("Failed to fetch");
        return jsonResponse(201, created, typeof planned === "object" ? planned.headers : {});
      } finally {
        inFlight--;
      }
    },
  };
  return store;
}

/** The Idempotency-Key of every create sent (of `name`'s only, when given), in order. */
export function postedKeys(requests: Request[], name?: string) {
  return Promise.all(
    requests
      .filter((request) => request.method === "POST")
      .map(async (request) => ({
        key: request.headers.get("idempotency-key"),
        name: ((await request.clone().json()) as NewPet).name,
      })),
  ).then((posts) => posts.filter((post) => name === undefined || post.name === name).map((post) => post.key));
}
