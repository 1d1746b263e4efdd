#include "runner/cli/cli.hpp"

int main(int argc, char** argv) { return a2a::cli::main_with_args(argc, argv); }
