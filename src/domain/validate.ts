/** Small input checks shared by actions (Zulip's wording). */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$|^[^\s@<>()[\]\\,;:"]+@localhost$/i;

export const isValidEmail = (email: string) => email.length <= 254 && EMAIL.test(email);

export const MAX_FULL_NAME_LENGTH = 100;
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 100;

/** Returns Zulip's message for a bad full name, or null when it is fine. */
export function fullNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return "Name too short!";
  if (trimmed.length > MAX_FULL_NAME_LENGTH) return `Name too long!`;
  if (/[\x00-\x1f\x7f*`\\>"@]/.test(trimmed)) return "Invalid characters in name!";
  return null;
}

export function passwordProblem(password: string): string | null {
  if (!password) return "Password is empty.";
  if (password.length < MIN_PASSWORD_LENGTH) return "The password is too weak.";
  if (password.length > MAX_PASSWORD_LENGTH) return "Password is too long.";
  return null;
}
