// The type of next.config.mjs (see there).
import type { NextConfig } from "next";

declare const config: NextConfig;
export default config;
