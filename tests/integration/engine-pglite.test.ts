import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "@/lib/engine/create-run";
import { getRun } from "@/lib/engine/run-service";
import { startWorker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { createPgliteTestDatabase, userA, waitFor, type TestDatabase } from "../helpers/databases";
import { describeEngine } from "./engine-suite";

describeEngine("PGlite", createPgliteTestDatabase);
