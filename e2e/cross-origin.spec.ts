// Attacks from other web pages, in a real browser: a form and a no-cors fetch on another origin
// that post to the API (the CSRF a security review did live), and DNS rebinding (a forged Host).
// Also that the app itself still works under its own Content-Security-Policy.
import { expect, test, type Page } from "@playwright/test";
import { startAttackSite, type AttackSite } from "./helpers/attack-site";
import { rawRequest } from "./helpers/raw-request";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";

const ATTACK_PORT = 3199;

function appOrigin(baseURL: string | undefined): string {
  return new URL(baseURL ?? "http://127.0.0.1:3100").origin;
}

/** An attacker's page: a text/plain form whose body parses as JSON, and a no-cors fetch. */
function attackPage(app: string, tag: string): string {
  // A text/plain form sends `name=value\r\n`: this name and value make `{"name":...,"pad":"="}`.
  const fieldName = JSON.stringify({ name: `pwned-by-form-${tag}`, text: "x", pad: "" }).slice(0, -2);
  const fetchBody = JSON.stringify({ name: `pwned-by-fetch-${tag}`, text: "x" });
  return `<!doctype html><html><body>
<iframe name="sink" title="sink"></iframe>
<form id="attack" method="post" enctype="text/plain" action="${app}/api/v1/prompts" target="sink">
  <input type="hidden" name='${fieldName.replace(/'/g, "&#39;")}' value='"}'>
</form>
<script>
  fetch(${JSON.stringify(`${app}/api/v1/prompts`)}, { mode: "no-cors", method: "POST", body: ${JSON.stringify(fetchBody)} });
  document.getElementById("attack").submit();
</script>
</body></html>`;
}

async function promptNames(page: Page): Promise<string[]> {
  const answer = await page.request.get("/api/v1/prompts");
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { prompts: Array<{ name: string }> }).prompts.map((prompt) => prompt.name);
}

test.describe("requests from other origins", () => {
  let site: AttackSite | null = null;
  test.afterEach(async () => {
    await site?.close();
    site = null;
  });

  test("a form and a no-cors fetch on another origin create no prompt", async ({ page, baseURL }) => {
    const app = appOrigin(baseURL);
    const tag = String(Date.now());
    site = await startAttackSite({ port: ATTACK_PORT, html: attackPage(app, tag) });

    // Both requests reach the server: wait until the browser is done with each, answered or
    // blocked (the answers are refused to the attacker's page: X-Frame-Options for the form's
    // frame, Cross-Origin-Resource-Policy for the no-cors fetch), before looking.
    const settled: string[] = [];
    const isAttack = (request: { method(): string; url(): string }) =>
      request.method() === "POST" && request.url() === `${app}/api/v1/prompts`;
    page.on("requestfinished", (request) => {
      if (isAttack(request)) settled.push("finished");
    });
    page.on("requestfailed", (request) => {
      if (isAttack(request)) settled.push(`blocked (${request.failure()?.errorText})`);
    });
    await page.goto(site.url);
    await expect.poll(() => settled.length, { timeout: 15_000 }).toBe(2);
    console.log(`[cross-origin] the form's and the fetch's requests: ${settled.join(", ")}`);

    const names = await promptNames(page);
    expect(names.filter((name) => name.includes(tag))).toEqual([]);
  });

  test("a forged Host (DNS rebinding) gets 421 for pages and the API", async ({ request, baseURL }) => {
    const app = appOrigin(baseURL);
    const port = new URL(app).port;
    // Playwright's request context, as a rebinding page's fetch would arrive.
    const viaPlaywright = await request.get("/api/v1/prompts", { headers: { host: `rebind.attacker.example:${port}` } });
    expect(viaPlaywright.status()).toBe(421);
    const body = (await viaPlaywright.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("misdirected_request");
    expect(body.error.message).toContain("PARALLAXR_ALLOWED_HOSTS");

    for (const path of ["/", "/api/v1/health", "/settings/keys"]) {
      const answer = await rawRequest({ url: `${app}${path}`, headers: { host: "rebind.attacker.example" } });
      expect(answer.status, `${path} with a forged Host`).toBe(421);
    }
    const post = await rawRequest({
      url: `${app}/api/v1/prompts`,
      method: "POST",
      headers: {
        host: `rebind.attacker.example:${port}`,
        origin: `http://rebind.attacker.example:${port}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ name: "pwned-by-rebinding", text: "x" }),
    });
    expect(post.status).toBe(421);
    // localhost under any port is this machine: still served.
    expect((await rawRequest({ url: `${app}/api/v1/health`, headers: { host: `localhost:${port}` } })).status).toBe(200);
  });
});

test.describe("the app under its Content-Security-Policy", () => {
  test("the workbench loads and runs with no CSP violation", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && /Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        console.error(`Content-Security-Policy violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
      });
    });

    const answer = await page.request.get("/");
    expect(answer.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

    await openFreshWorkbench(page, { text: "Describe {{city}}.", rows: [{ city: "Lyon" }, { city: "Oslo" }] });
    const workbench = new WorkbenchPage(page);
    await workbench.clickRun();
    await workbench.expectDone(2);
    await expect(workbench.cell(1, "mock / echo")).toContainText("Lyon");
    await page.goto("/settings/keys");
    await expect(page.getByRole("heading").first()).toBeVisible();
    await saveScreenshot(page, "csp-settings");
    expect(violations).toEqual([]);
  });
});
