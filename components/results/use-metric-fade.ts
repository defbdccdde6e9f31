"use client";

import { useState } from "react";

/**
 * Classes that fade a metric badge in over 150 ms (the spec's switch animation) once the metric
 * has changed since the badge mounted. Key the element on the metric so each switch remounts it
 * and @starting-style runs; rows mounted by scrolling show at once instead of flickering in.
 */
export function useMetricFade(metric: string): string {
  const [firstMetric] = useState(metric);
  const [switched, setSwitched] = useState(false);
  if (!switched && metric !== firstMetric) setSwitched(true);
  return switched || metric !== firstMetric ? "transition-opacity duration-150 starting:opacity-0 motion-reduce:transition-none" : "";
}
