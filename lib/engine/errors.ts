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

/**
 * A run refused because the user already has too many cells waiting: the request itself fits,
 * and would be accepted once their queue drains. A TooLargeError, so the API answers 413 until
 * its own table maps this class to 429.
 */
export class QueuedCellsLimitError extends TooLargeError {
  constructor(message: string) {
    super(message);
    this.name = "QueuedCellsLimitError";
  }
}

/** A lifecycle action (pause, resume, cancel) that does not apply to the run's current status; becomes HTTP 409. */
export class RunActionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RunActionError";
  }
}
