import type { NewPet, Pet, PetStatus } from "@petstore/contract";

export interface PetPageQuery {
  /** Rows to return at most. */
  take: number;
  status?: PetStatus | undefined;
  /** Only pets with an id greater than this. */
  after?: number | undefined;
}

/** Storage of pets, in ascending id order. Implemented per database. */
export interface PetRepository {
  list(query: PetPageQuery): Promise<Pet[]>;
  create(pet: NewPet): Promise<Pet>;
  findById(id: number): Promise<Pet | null>;
}
