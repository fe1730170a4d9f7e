import type { Profile, UpdateProfileRequest } from "@flowstate/contracts/rest/identity/users";
import { emit, inTransaction, type ServiceContext } from "../context.ts";
import { loadActiveUser, toProfile } from "./get-profile.ts";
import { requireUser } from "./lib/guards.ts";

/** Changes name and/or picture; the event names the fields changed, never their values. */
export async function updateProfile({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: UpdateProfileRequest;
}): Promise<Profile> {
  const { sub } = requireUser(ctx);
  return inTransaction(ctx, async (em) => {
    const user = await loadActiveUser(em, sub, true);
    const fields: ("name" | "picture_url")[] = [];
    if (input.name !== undefined && input.name !== user.name) {
      user.name = input.name;
      fields.push("name");
    }
    if (input.picture_url !== undefined && input.picture_url !== user.picture_url) {
      user.picture_url = input.picture_url;
      fields.push("picture_url");
    }
    if (fields.length) emit(ctx, em, "UserProfileUpdated.v1", { sub, fields }, { subject: sub });
    return toProfile(user);
  });
}
