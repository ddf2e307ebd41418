#include "sim/execution/process_pool.hpp"

#include "sim/execution/interruption.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include <csignal>

#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sonicsim {
namespace {

struct RunningChild {
  std::size_t task = 0;
  int pipe_fd = -1;
  std::string received;
  std::chrono::steady_clock::time_point started;
};

void write_all(int fd, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n <= 0) return;
    written += static_cast<std::size_t>(n);
  }
}

// Ctrl-C: every running child is killed and reaped, none reported as done; then Interrupted.
[[noreturn]] void stop_children(std::map<pid_t, RunningChild>& running, std::size_t finished,
                                std::size_t count) {
  for (const auto& [pid, child] : running)
    ::kill(pid, SIGKILL);
  for (const auto& [pid, child] : running) {
    ::close(child.pipe_fd);
    int status = 0;
    ::waitpid(pid, &status, 0);
  }
  running.clear();
  throw Interrupted(std::to_string(finished) + " of " + std::to_string(count) +
                    " simulations had finished; the ones running were stopped and are not counted");
}

// A child process for task `index`: it writes "R" and the task's result, or "E" and its error, into a pipe
// whose reading end is returned with its pid.
std::pair<pid_t, int> start_child(const std::function<std::string(std::size_t)>& task, std::size_t index) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    // A child must not outlive its parent: a sweep killed with SIGKILL takes its running points with it.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    block_interruption(); // the parent stops it
    ::close(fds[0]);
    int status = 0;
    try {
      write_all(fds[1], "R" + task(index));
    } catch (const std::exception& error) {
      write_all(fds[1], std::string("E") + error.what());
      status = 3;
    }
    ::close(fds[1]);
    std::fflush(nullptr);
    ::_exit(status);
  }
  ::close(fds[1]);
  return {pid, fds[0]};
}

} // namespace

void run_in_child_processes(std::size_t count, int parallel,
                            const std::function<std::string(std::size_t)>& task,
                            const std::function<void(std::size_t, const ChildResult&)>& on_done) {
  if (parallel < 1) parallel = 1;
  std::map<pid_t, RunningChild> running;
  std::size_t next = 0, finished = 0;
  const InterruptionGuard guard;
  std::fflush(nullptr); // a child must not flush the parent's buffered output a second time
  while (next < count || !running.empty()) {
    if (InterruptionGuard::received()) stop_children(running, finished, count);
    while (next < count && static_cast<int>(running.size()) < parallel) {
      const auto [pid, read_fd] = start_child(task, next);
      running[pid] = RunningChild{next, read_fd, {}, std::chrono::steady_clock::now()};
      ++next;
    }
    // Drain every child's pipe (a result can be larger than the pipe buffer), then reap those that closed it.
    std::vector<pollfd> polls;
    for (const auto& [pid, child] : running)
      polls.push_back(pollfd{child.pipe_fd, POLLIN, 0});
    if (::poll(polls.data(), polls.size(), -1) < 0) {
      if (errno != EINTR) throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
      continue; // a signal: the loop's head looks whether it was an interruption
    }
    for (const auto& ready : polls) {
      if (!(ready.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      for (auto it = running.begin(); it != running.end(); ++it) {
        if (it->second.pipe_fd != ready.fd) continue;
        char buffer[65536];
        const ssize_t n = ::read(ready.fd, buffer, sizeof buffer);
        if (n > 0) {
          it->second.received.append(buffer, static_cast<std::size_t>(n));
          break;
        }
        // End of file: the child is done.
        ::close(ready.fd);
        int status = 0;
        rusage usage{};
        ::wait4(it->first, &status, 0, &usage);
        ChildResult result;
        const std::string& text = it->second.received;
        result.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && !text.empty() && text[0] == 'R';
        // After a Ctrl-C only a complete result counts (the loop's head stops the others).
        if (InterruptionGuard::received() && !result.ok) {
          running.erase(it);
          break;
        }
        if (!text.empty()) result.output = text.substr(1);
        if (!result.ok && text.empty()) {
          result.output = WIFSIGNALED(status)
                              ? "child process killed by signal " + std::to_string(WTERMSIG(status))
                              : "child process exited with status " + std::to_string(WEXITSTATUS(status));
        }
        result.peak_rss_kb = usage.ru_maxrss;
        result.cpu_s = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                       1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
        result.wall_clock_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - it->second.started).count();
        const std::size_t finished_task = it->second.task;
        running.erase(it);
        ++finished;
        on_done(finished_task, result);
        break;
      }
    }
  }
  // A signal after the last child finished, before this guard goes: the next batch's guard would start
  // afresh and lose it (a plan once ran to its end after Ctrl-C at a batch's end). It stops the command too.
  if (InterruptionGuard::received()) stop_children(running, finished, count);
}

} // namespace sonicsim
