/** Input that names a field wrongly; becomes HTTP 400 with that field. */
export class ValidationError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "ValidationError";
  }
}

/** Something the caller asked for that is not there, or not theirs; becomes HTTP 404. */
export class NotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotFoundError";
  }
}

/**
 * A request whose size passes a documented limit (body, prompt, rendered input, cells of a run);
 * becomes HTTP 413. The message names the limit and how to stay under it.
 */
export class TooLargeError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "TooLargeError";
  }
}
