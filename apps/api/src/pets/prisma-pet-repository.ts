import type { PrismaClient } from "../generated/pg/client.js";
import type { PetRepository } from "./pet-repository.js";
import { toPet } from "./pet-row.js";

const petColumns = { id: true, name: true, categoryId: true, status: true } as const;

/** Pets on PostgreSQL, through Prisma's generated client (int64 columns are `bigint` there). */
export function createPrismaPetRepository(prisma: PrismaClient): PetRepository {
  return {
    async list({ take, status, after }) {
      const rows = await prisma.pet.findMany({
        select: petColumns,
        where: {
          ...(status !== undefined ? { status } : {}),
          ...(after !== undefined ? { id: { gt: BigInt(after) } } : {}),
        },
        orderBy: { id: "asc" },
        take,
      });
      return rows.map(toPet);
    },
    async create(pet) {
      const row = await prisma.pet.create({
        select: petColumns,
        data: { name: pet.name, categoryId: BigInt(pet.categoryId), status: pet.status ?? null },
      });
      return toPet(row);
    },
    async findById(id) {
      const row = await prisma.pet.findUnique({ select: petColumns, where: { id: BigInt(id) } });
      return row ? toPet(row) : null;
    },
  };
}
