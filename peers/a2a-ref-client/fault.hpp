// Fault injection for the meta-tests of `a2a-conform client`
// (fixtures/client-fault-matrix.yaml): `a2a-ref-client --fault NAME` turns on
// one known defect, so the client scenarios can prove they catch it. The
// fault is process-wide and set once by main before any session starts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace a2a::client {

struct FaultInfo {
  std::string_view name;
  std::string_view what;
};

const std::vector<FaultInfo>& known_faults();
// false (and nothing set) for an unknown name.
bool set_fault(std::string_view name);
bool fault_on(std::string_view name);

}  // namespace a2a::client
