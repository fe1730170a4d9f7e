import { z } from "zod";

// StartChangeSet request as the Catalog model defines it. Entity.Identifier and ChangeName are
// looser than the model's patterns on purpose: AWS's own samples send `$Name.Entity.Identifier`
// and names like "CreateOfferChange", which those patterns would refuse.
const Tag = z.object({ Key: z.string().min(1).max(128), Value: z.string().max(256) });

export const ChangeInput = z.object({
  ChangeType: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[A-Z]\w*$/, "Member must satisfy regular expression pattern: ^[A-Z][\\w]*$"),
  Entity: z.object({
    Type: z.string().min(1).max(255),
    Identifier: z.string().min(1).max(255).optional(),
  }),
  EntityTags: z.array(Tag).max(200).optional(),
  Details: z.string().min(2).max(16384).optional(),
  DetailsDocument: z.unknown().optional(),
  ChangeName: z
    .string()
    .min(1)
    .max(72)
    .regex(/^[a-zA-Z]\w*$/, "Member must start with a letter and contain only letters, digits and _")
    .optional(),
});
export type ChangeInput = z.infer<typeof ChangeInput>;

export const StartChangeSetInput = z.object({
  Catalog: z.string().min(1).max(64),
  ChangeSet: z
    .array(ChangeInput)
    .min(1, "Member must have length greater than or equal to 1")
    .max(20, "Member must have length less than or equal to 20"),
  ChangeSetName: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w\s+=.:@-]+$/, "Member must satisfy regular expression pattern: ^[\\w\\s+=.:@-]+$")
    .optional(),
  ClientRequestToken: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[!-~]+$/)
    .optional(),
  ChangeSetTags: z.array(Tag).max(200).optional(),
  Intent: z.enum(["VALIDATE", "APPLY"]).optional(),
});
export type StartChangeSetInput = z.infer<typeof StartChangeSetInput>;
