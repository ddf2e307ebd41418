// The files a command writes and another reads back later (a sweep's sweep_plan.json and points, Slurm's
// jobs.json, tasks.json and results), written whole or not at all. A damaged one (truncated by a full disk,
// edited by hand) is named as such with what to do, never with the JSON library's own text, and exits as bad
// input (2).
#pragma once

#include "sim/scenario/input_error.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace sonicsim {

// Writes `text` to `path` through `path`.partial and a rename: a reader never sees half a file.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

// A file the user named on the command line (`option`: "--yaml", "--out"), checked before it is written: an
// InputError when it is empty, a directory, one of the command's `inputs`, or a special file other than a
// character device or a pipe. A character device or a pipe (/dev/stdout, /dev/null) is written in place;
// anything else through write_file_atomically, whose rename only ever replaces a regular file.
void check_output_file(const std::string& option, const std::filesystem::path& path,
                       const std::vector<std::filesystem::path>& inputs);
void write_output_file(const std::string& option, const std::filesystem::path& path, const std::string& text,
                       const std::vector<std::filesystem::path>& inputs);

struct StateFileError : InputError {
  using InputError::InputError;
};

// What is wrong with a state file, in words, from the JSON library's exception.
std::string json_problem(const nlohmann::json::exception& error);

// Parses PATH and hands it to `read`, which takes out what it needs; a parse error, a missing field or a
// field of the wrong type is a StateFileError "PATH: damaged WHAT (PROBLEM); REMEDY".
template <typename Read>
auto read_state_file(const std::filesystem::path& path, const std::string& what, const std::string& remedy,
                     Read read) {
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw StateFileError(path.string() + ": cannot read the " + what + "; " + remedy);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  try {
    return read(nlohmann::ordered_json::parse(text));
  } catch (const nlohmann::json::exception& error) {
    throw StateFileError(path.string() + ": damaged " + what + " (" + json_problem(error) + "); " + remedy);
  }
}

} // namespace sonicsim
