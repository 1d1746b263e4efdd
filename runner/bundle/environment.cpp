#include "runner/bundle/environment.hpp"

#include <sys/utsname.h>

#include <chrono>
#include <ctime>
#include <thread>

namespace a2a::bundle {

nlohmann::json environment_facts(bool include_hostname) {
  nlohmann::json j = nlohmann::json::object();
  struct utsname u {};
  if (uname(&u) == 0) {
    j["os"] = u.sysname;
    j["kernel"] = u.release;
    j["machine"] = u.machine;
    if (include_hostname) j["hostname"] = u.nodename;
  }
  j["cpus"] = std::thread::hardware_concurrency();
  return j;
}

std::string utc_now() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace a2a::bundle
