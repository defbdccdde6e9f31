/** Parameters of one column's model. Each provider validates the ones it understands. */
export type ModelParams = Record<string, unknown>;

/** One call of a text model. */
export interface TextGenerateRequest {
  model: string;
  /** The rendered prompt, sent as the user message. */
  prompt: string;
  params: ModelParams;
  /** The row's variables, for providers that report them (the mock does). */
  variables: Record<string, string>;
  signal: AbortSignal;
  /** A grader's call says so: the mock then fills an empty `<response></response>` with a grade. */
  purpose?: "generate" | "grade";
  /** When set, the adapter streams and calls this with each piece of text as it arrives. */
  onDelta?: (text: string) => void;
}

/** What a text model answered, normalised across vendors. */
export interface TextGenerateResult {
  text: string;
  tokensIn: number | null;
  tokensOut: number | null;
  /** True when the counts are our estimate because the provider gave none. */
  tokensEstimated: boolean;
  finishReason: string | null;
  /** Options the provider could not honour, and the like: shown on the cell. */
  warnings: string[];
  /** Cost in US dollars when the provider itself reports it (free models say 0). */
  costUsd?: number | null;
}

/** A model a provider offers, for the column picker. */
export interface ModelInfo {
  provider: string;
  model: string;
  label: string;
  description?: string;
  contextWindow?: number | null;
  /** US dollars per million tokens, when known (a vendor's live list, a user's or the reference price). */
  price?: { inputPerMTok: number | null; outputPerMTok: number | null } | null;
}

/** A text-model provider: one adapter per vendor. */
export interface TextProvider {
  readonly id: string;
  readonly kind: "text";
  generate(request: TextGenerateRequest): Promise<TextGenerateResult>;
  listModels(): Promise<ModelInfo[]>;
  /** Tokens of text by the model's own tokenizer, where the provider has one (local models). */
  countTokens?(model: string, text: string): Promise<number>;
  /** The model's context window in tokens, or null when unknown. */
  contextWindow?(model: string): Promise<number | null>;
}

/** One call of an image model (image batch runs). */
export interface ImageGenerateRequest {
  model: string;
  prompt: string;
  params: ModelParams;
  signal: AbortSignal;
}

/** Images an image model returned, with whatever receipt the vendor gave. */
export interface ImageGenerateResult {
  images: Array<{ data: Uint8Array; mediaType: string }>;
  receipt: Record<string, unknown>;
  costUsd?: number | null;
  warnings: string[];
}

/** An image-model provider. */
export interface ImageProvider {
  readonly id: string;
  readonly kind: "image";
  generate(request: ImageGenerateRequest): Promise<ImageGenerateResult>;
  listModels(): Promise<ModelInfo[]>;
}

/** Any provider the registry can hold. */
export type Provider = TextProvider | ImageProvider;
