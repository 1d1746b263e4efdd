// Loads ACTS documents (with our x- extensions) into the scenario model.
// Every problem of a file is reported at once: the Error's message holds one
// "file:line:column: problem" line per problem, sorted by position, and its
// `where` stays empty (the lines carry the locations). Kinds: kNotFound (file
// or include missing), kIo, kParse (YAML syntax), kSchema (everything else);
// with several problems the kind is that of the first line. Every function
// reads within `limits` (limits.hpp): a file beyond one is refused at the
// node that crossed it, before the node tree is built.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "runner/core/expected.hpp"
#include "runner/scenario/limits.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::scenario {

// One file; its `include` list is recorded, not followed.
core::Expected<Document> load_document(const std::filesystem::path& path, const LoadLimits& limits = {});

// YAML text parsed as if read from the file `name` (x-send-bytes {file}
// fixtures resolve against name's folder).
core::Expected<Document> parse_document_text(std::string_view text, const std::string& name,
                                             const LoadLimits& limits = {});

// The file and, depth first, every file it includes (paths relative to the
// including file). Order: a document comes before the documents it includes.
// A file reached twice is loaded once; a cycle is an error naming the chain.
// An included document inherits the includer's variables it does not define.
// Problems of all files are collected into one Error.
core::Expected<std::vector<Document>> load_with_includes(const std::filesystem::path& path,
                                                         const LoadLimits& limits = {});

}  // namespace a2a::scenario
