#include "runner/grpc/target.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

namespace a2a::grpcwire {

core::Expected<GrpcTarget> parse_target(const std::string& url) {
  GrpcTarget t;
  std::string rest = url;
  for (auto [scheme, tls] : {std::pair{"http://", false}, std::pair{"grpc://", false}, std::pair{"https://", true},
                             std::pair{"grpcs://", true}}) {
    if (rest.starts_with(scheme)) {
      rest = rest.substr(std::string_view(scheme).size());
      t.tls = tls;
      break;
    }
  }
  if (rest.find("://") != std::string::npos)
    return core::fail(core::ErrorKind::kInvalidArgument,
                      "'" + url + "' is not host:port nor an http, https, grpc or grpcs URL");
  if (auto slash = rest.find('/'); slash != std::string::npos) {
    if (rest.substr(slash) != "/")
      return core::fail(core::ErrorKind::kInvalidArgument,
                        "'" + url + "' has a path; a gRPC interface is host:port (the service path is fixed)");
    rest = rest.substr(0, slash);
  }
  auto colon = rest.rfind(':');
  if (rest.empty() || colon == std::string::npos || colon == 0 || colon + 1 == rest.size() ||
      !std::all_of(rest.begin() + static_cast<long>(colon) + 1, rest.end(),
                   [](unsigned char c) { return std::isdigit(c); }))
    return core::fail(core::ErrorKind::kInvalidArgument, "'" + url + "' has no host:port");
  t.authority = rest;
  return t;
}

}  // namespace a2a::grpcwire
