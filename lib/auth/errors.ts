/** A request without valid credentials where they are needed; becomes HTTP 401. */
export class UnauthorizedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnauthorizedError";
  }
}
