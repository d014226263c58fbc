// Slack user ids (U…, or W… on Enterprise Grid). Where a person's id is expected, an API question asked in a
// channel has the channel's id (C…, G…) instead: there is no locale to read and no App Home to publish.
const USER_ID = /^[UW][A-Z0-9]+$/;

export const isUserId = (id: string): boolean => USER_ID.test(id);
