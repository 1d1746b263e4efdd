#include "runner/bundle/environment.hpp"

#include <sys/utsname.h>

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

}  // namespace a2a::bundle
