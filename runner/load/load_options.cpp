#include "runner/load/load_options.hpp"

#include <cmath>
#include <cstdlib>

namespace a2a::load {

core::Expected<core::Millis> parse_load_duration(const std::string& text, long long max_ms) {
  auto bad = [&](const std::string& why) {
    return core::fail(core::ErrorKind::kInvalidArgument, "\"" + text + "\": " + why);
  };
  if (text.empty() || text.size() > 32) return bad("expected a duration such as 10s, 500ms or 2m");
  size_t unit_at = text.find_first_not_of("0123456789.");
  std::string number = text.substr(0, unit_at), unit = unit_at == std::string::npos ? "" : text.substr(unit_at);
  if (number.empty() || number.find('.') != number.rfind('.') || number == ".")
    return bad("expected a duration such as 10s, 500ms or 2m");
  double v = std::strtod(number.c_str(), nullptr);
  double scale = 0;
  if (unit == "ms") scale = 1;
  else if (unit == "s") scale = 1000;
  else if (unit == "m" || unit == "min") scale = 60000;
  else if (unit.empty() && v == 0) scale = 1;  // "0" needs no unit
  else return bad("give a unit: ms, s or m (e.g. 10s)");
  double ms = v * scale;
  if (!std::isfinite(ms) || ms > static_cast<double>(max_ms))
    return bad("at most " + std::to_string(max_ms / 1000) + " s");
  return core::Millis(static_cast<long long>(std::llround(ms)));
}

core::Expected<std::map<std::string, int>> parse_load_ops(const std::string& text) {
  std::map<std::string, int> out;
  auto bad = [&](const std::string& why) {
    return core::fail(core::ErrorKind::kInvalidArgument, "\"" + text + "\": " + why);
  };
  if (text.size() > 200) return bad("too long");
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    pos = comma == std::string::npos ? text.size() + 1 : comma + 1;
    auto eq = item.find('=');
    std::string name = item.substr(0, eq);
    if (name != "send" && name != "stream" && name != "get")
      return bad("unknown operation \"" + name + "\" (the operations: send, stream, get)");
    if (out.count(name)) return bad(name + " is named twice");
    int weight = 1;
    if (eq != std::string::npos) {
      std::string w = item.substr(eq + 1);
      if (w.empty() || w.size() > 4 || w.find_first_not_of("0123456789") != std::string::npos)
        return bad("the weight of " + name + " is not a whole number 0..1000");
      weight = std::atoi(w.c_str());
      if (weight > 1000) return bad("the weight of " + name + " is above 1000");
    }
    out[name] = weight;
  }
  int sum = 0;
  for (const auto& kv : out) sum += kv.second;
  if (sum == 0) return bad("every weight is 0: give at least one operation a weight above 0");
  return out;
}

}  // namespace a2a::load
