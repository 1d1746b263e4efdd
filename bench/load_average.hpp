// The machine's load average, printed by the benchmarks beside their figures:
// on a shared machine a rate means little without it (docs/performance.md).
#pragma once

#include <cstdio>
#include <string>

namespace a2a::bench {

// /proc/loadavg's 1, 5 and 15 minute averages ("2.31 1.80 1.52"), or "unknown".
inline std::string load_average() {
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  if (!f) return "unknown";
  double one = 0, five = 0, fifteen = 0;
  int n = std::fscanf(f, "%lf %lf %lf", &one, &five, &fifteen);
  std::fclose(f);
  if (n != 3) return "unknown";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f %.2f %.2f", one, five, fifteen);
  return buf;
}

}  // namespace a2a::bench
