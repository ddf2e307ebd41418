#include "sim/app/bench/bench_answers.hpp"

#include "sim/execution/shell_commands.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sonicsim {

CommandTiming time_command(const std::vector<std::string>& words) {
  const std::string executable = own_executable();
  std::vector<std::string> argv_text{executable};
  argv_text.insert(argv_text.end(), words.begin(), words.end());
  std::vector<char*> argv;
  for (auto& word : argv_text)
    argv.push_back(word.data());
  argv.push_back(nullptr);
  const auto started = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("bench: cannot start " + shell_command(argv_text));
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) {
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    ::execv(executable.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  // wait4's usage is the child's own and that of every process it waited for (Linux: RUSAGE_BOTH), so a
  // plan's simulations in its own child processes are counted.
  if (::wait4(pid, &status, 0, &usage) != pid)
    throw std::runtime_error("bench: lost " + shell_command(argv_text));
  CommandTiming out;
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out.cpu_s = cpu_seconds(usage);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return out;
}

std::optional<double> peer_requests_per_s(const std::string& script, int jobs, int events) {
  // Debian's interpreter by its path: another python3 first on PATH (pyenv, a venv) has no python3-simpy3.
  const auto [status, output] = run_shell("/usr/bin/python3 " + shell_quote(script) + " " +
                                          std::to_string(jobs) + " " + std::to_string(events));
  if (status != 0) return std::nullopt;
  return printed_requests_per_s(output);
}

} // namespace sonicsim
