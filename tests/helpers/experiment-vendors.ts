import { readJsonFixture, type VendorServer } from "./vendor-server";

/**
 * The answers of the experiments spec's example scenario: a local OpenRouter (its models list
 * with anthropic/claude-sonnet-4 at 200,000 tokens, chat answers of 123 tokens) and a local Ollama
 * (/api/show of an 8,192-token llama, chat answers of 89 tokens).
 */
export function routeExampleVendors(openrouter: VendorServer, ollama: VendorServer): void {
  const models = readJsonFixture("openrouter", "models.json");
  models.data.push({ ...models.data[0], id: "anthropic/claude-sonnet-4", context_length: 200000 });
  openrouter.route("GET /api/v1/models", { body: models });
  openrouter.route("POST /api/v1/chat/completions", (request) => {
    const completion = readJsonFixture("openrouter", "chat-completion.json");
    completion.model = (request.body as { model: string }).model;
    completion.choices[0].message.content = "Machine learning is...";
    completion.usage.completion_tokens = 123;
    return { body: completion };
  });
  ollama.route("POST /api/show", { body: readJsonFixture("ollama", "show.json") });
  ollama.route("POST /api/chat", () => {
    const chat = readJsonFixture("ollama", "chat.json");
    chat.message.content = "Natural language processing...";
    chat.eval_count = 89;
    return { body: chat };
  });
}
