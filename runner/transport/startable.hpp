// Whether a command can be started at all, checked before the first scenario
// so a target that cannot run is diagnosed once, in milliseconds, instead of
// once per scenario (docs/runner.md "A target that cannot be started").
#pragma once

#include <string>
#include <vector>

namespace a2a::transport {

// "" when argv[0] resolves (PATH, or relative to `cwd`) to an executable
// regular file whose "#!" interpreter, if any, exists and is executable;
// for "#!/usr/bin/env NAME", NAME must be found in PATH too. Else why not,
// naming the program: "program 'x' not found in PATH", "'./a.sh' names the
// interpreter '/no/such' on its #! line, which does not exist". Reads at most
// the first 256 bytes of the program; never runs it. A check that passes does
// not promise exec succeeds (a binary for another machine fails only then).
std::string start_problem(const std::vector<std::string>& argv, const std::string& cwd = "");

}  // namespace a2a::transport
