// Facts about the machine a bundle was recorded on (manifest.json's
// "environment"): what a reader needs to judge whether a rerun elsewhere
// should behave the same. No secrets: no environment variables are copied.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace a2a::bundle {

// {os, kernel, machine, hostname (when include_hostname), cpus}.
nlohmann::json environment_facts(bool include_hostname);

}  // namespace a2a::bundle
