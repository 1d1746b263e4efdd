// jsonrpc::dump's bytes appended to a string the caller is writing (the
// reference agent's store writes its event and task texts this way).
// Apart from message.hpp so that header, which most of the tree includes,
// stays as it was.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace a2a::jsonrpc {

// Appends jsonrpc::dump(j) to `out`: j.dump(-1, ' ', false,
// Json::error_handler_t::replace), byte for byte (message.cpp).
void dump_to(std::string& out, const nlohmann::json& j);

}  // namespace a2a::jsonrpc
