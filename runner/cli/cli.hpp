// a2a-conform's command line: flags -> config -> engine -> writers -> exit code.
#pragma once

namespace a2a::cli {

// Exit codes (DESIGN.md): 0 conformant, 1 conformance failures, 2 usage or
// harness error.
int main_with_args(int argc, char** argv);

}  // namespace a2a::cli
