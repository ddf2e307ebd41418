#include "sim/execution/interruption.hpp"

#include <csignal>

namespace sonicsim {
namespace {

volatile std::sig_atomic_t received_signal = 0;
int guards_alive = 0; // nested guards: the outermost installs and restores, the inner ones share its flag

extern "C" void note_signal(int signal) {
  received_signal = signal;
}

} // namespace

struct InterruptionGuard::Saved {
  struct sigaction interrupt {};
  struct sigaction terminate {};
};

InterruptionGuard::InterruptionGuard() : saved_(nullptr) {
  if (guards_alive++ > 0) return;
  saved_ = new Saved;
  received_signal = 0;
  struct sigaction action {};
  action.sa_handler = note_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0; // no SA_RESTART: a blocking poll returns with EINTR, and the wait loop looks
  sigaction(SIGINT, &action, &saved_->interrupt);
  sigaction(SIGTERM, &action, &saved_->terminate);
}

InterruptionGuard::~InterruptionGuard() {
  --guards_alive;
  if (!saved_) return;
  sigaction(SIGINT, &saved_->interrupt, nullptr);
  sigaction(SIGTERM, &saved_->terminate, nullptr);
  delete saved_;
}

int InterruptionGuard::received() {
  return received_signal;
}

void throw_if_interrupted(const std::string& what) {
  if (received_signal) throw Interrupted(what);
}

void block_interruption() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigprocmask(SIG_BLOCK, &signals, nullptr);
}

} // namespace sonicsim
