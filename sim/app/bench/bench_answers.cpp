#include "sim/app/bench/bench_answers.hpp"

#include "sim/execution/shell_commands.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
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

// The answers a user waits for, as whole commands in a child each (output into a temporary directory), with
// the goals of the speed issue ("every answer while the user waits"): CPU seconds where a command's
// simulations are the cost, wall seconds where a class waits for it on 2 cores.
nlohmann::ordered_json time_answers(const TextOutput& say, bool with_calibration) {
  // A directory of its own (mkdtemp): two benches at once, or another user's, never share one.
  std::string pattern = (std::filesystem::temp_directory_path() / "sonicsim_bench_answers_XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("bench: cannot make a directory in " + pattern);
  const std::filesystem::path scratch = pattern;
  struct Answer {
    const char* name;
    std::vector<std::string> words;
    const char* goal;
  };
  std::vector<Answer> list{
      {"plan --jobs 2000 --variant a100",
       {"plan", "--jobs", "2000", "--variant", "a100", "-j", "2", "-q", "--out", (scratch / "plan").string()},
       "<= 8 CPU-s"},
      {"plan ... --device-types T4,A100",
       {"plan", "--jobs", "2000", "--variant", "a100", "--device-types", "T4,A100", "-j", "2", "-q", "--out",
        (scratch / "plan_devices").string()},
       "<= 16 CPU-s"},
      // A teacher's curve: the default scenario from 20 to 480 jobs, 24 points, with its report.
      {"sweep jobs 20:480:20 --html",
       {"sweep", "--vary", "workload.jobs=20:480:20", "--html", "-j", "2", "-q", "--out",
        (scratch / "sweep_teacher").string()},
       "<= 10 s wall on 2 cores"},
      // Where the 2022 site switch saturates: every job at once (no campaign), 100 to 1,000 jobs.
      {"sweep 2022 switch, 10 points",
       {"sweep", "configs/protodune_2022_campaign.yaml", "--set", "workload.campaign=null", "--vary",
        "workload.jobs=100:1000:100", "-j", "2", "-q", "--out", (scratch / "sweep_switch").string()},
       "<= 10 s wall on 2 cores"},
      {"validate --fast",
       {"validate", "--fast", "-j", "2", "-q", "--report", (scratch / "validate").string()},
       "<= 30 s wall on 2 cores"},
      {"validate (all cases)",
       {"validate", "-j", "2", "-q", "--report", (scratch / "validate_all").string()},
       "<= 30 CPU-s"}};
  if (with_calibration) {
    list.push_back({"calibrate CMS spec --predict-from",
                    {"calibrate", "--spec", "validation/calibration/cms_miniaod_2024.yaml", "--predict-from",
                     "validation/calibration/cms_miniaod_2024_calibration.json", "-j", "2", "-q", "--out",
                     (scratch / "predict_from").string()},
                    "<= 90 CPU-s"});
    list.push_back({"calibrate CMS spec (whole)",
                    {"calibrate", "--spec", "validation/calibration/cms_miniaod_2024.yaml", "-j", "2", "-q",
                     "--out", (scratch / "calibrate").string()},
                    "<= 240 CPU-s"});
  }
  say("\nanswers (whole commands, -j 2; run from the repository root):\n%-34s %10s %10s %6s  %s\n", "command",
      "wall s", "CPU s", "exit", "goal");
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& answer : list) {
    const CommandTiming timing = time_command(answer.words);
    say("%-34s %10.1f %10.1f %6d  %s\n", answer.name, timing.wall_s, timing.cpu_s, timing.exit_code,
        answer.goal);
    out.push_back({{"command", answer.name},
                   {"wall_s", timing.wall_s},
                   {"cpu_s", timing.cpu_s},
                   {"exit_code", timing.exit_code},
                   {"goal", answer.goal}});
  }
  std::filesystem::remove_all(scratch);
  return out;
}

} // namespace sonicsim
