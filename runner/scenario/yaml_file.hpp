// One YAML file that is not a scenario (a known-failures list, say) read
// under the same bounds as scenario files (limits.hpp): its size first, then
// nodes, aliases, depth and strings counted on the parser's events before any
// tree is built. Errors: kNotFound (no such file), kIo (not a regular file,
// too large), kParse (syntax or a limit crossed, located), kSchema (empty or
// several documents).
#pragma once

#include <filesystem>

#include <yaml-cpp/yaml.h>

#include "runner/core/expected.hpp"
#include "runner/scenario/limits.hpp"

namespace a2a::scenario {

core::Expected<YAML::Node> load_yaml_file(const std::filesystem::path& path, const LoadLimits& limits = {});

}  // namespace a2a::scenario
