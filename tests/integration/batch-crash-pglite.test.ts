import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "@/lib/db/open-database";
import { describeBatchCrash } from "./batch-crash-suite";

// A PGlite folder opened by one process at a time: the test, then the worker, then the test again.
describeBatchCrash("PGlite", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-batch-crash-pglite-"));
  return {
    open: () => openDatabase({ dataDir }),
    env: { BATCH_DATA_DIR: dataDir },
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
});
