const day = (d: Date) => d.toISOString().slice(0, 10);
const minute = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * The "your export is ready" e-mail. It says how to get the export and carries nothing that opens
 * it: no link, no URL, no token and no job id (interface.md 4.1 rule 2; Mastodon #6798). The body
 * is built here and handed to SES only; it is never stored.
 */
export function readyEmail(job: { requested_at: Date; expires_at: Date }): { subject: string; text: string } {
  return {
    subject: "Your Flowstate data export is ready",
    text: [
      "Hello,",
      "",
      `the export of your personal data that you requested on ${day(job.requested_at)} is ready.`,
      `You can download it until ${minute(job.expires_at)}; after that it is deleted.`,
      "",
      "For your security this e-mail contains no download link. To download the export, sign in",
      "and poll the export job you started through the Flowstate API (GET /v1/users/me/export/{job_id}),",
      "or ask your MCP client to run the get_my_export_status tool. Each answer carries a new",
      "download link that works for a few minutes.",
      "",
      "If you did not ask for this export, change your password and contact Flowstate support.",
      "",
      "Flowstate",
    ].join("\n"),
  };
}
