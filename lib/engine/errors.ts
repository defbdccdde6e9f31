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

/**
 * Input refused with a message that is whole as written (it names the field itself where it
 * needs to, or says what to do instead); becomes HTTP 400 with that field.
 */
export class InvalidInputError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "InvalidInputError";
  }
}

/** Something the caller asked for that is not there, or not theirs; becomes HTTP 404 (naming the field that named it, when given). */
export class NotFoundError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
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

/**
 * A run refused because its prompt already has one unfinished (queued, running or paused): one
 * active run per prompt, decided by the server; becomes HTTP 409 carrying that run's id.
 */
export class ActiveRunError extends Error {
  constructor(readonly runId: string) {
    super(`This prompt already has a run in progress (${runId}). Open it, or cancel it before starting another.`);
    this.name = "ActiveRunError";
  }
}
