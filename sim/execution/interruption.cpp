#include "sim/execution/interruption.hpp"

#include <csignal>

namespace sonicsim {
namespace {

volatile std::sig_atomic_t received_signal = 0;

extern "C" void note_signal(int signal) {
  received_signal = signal;
}

} // namespace

struct InterruptionGuard::Saved {
  struct sigaction interrupt {};
  struct sigaction terminate {};
};

InterruptionGuard::InterruptionGuard() : saved_(new Saved) {
  received_signal = 0;
  struct sigaction action {};
  action.sa_handler = note_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0; // no SA_RESTART: a blocking poll returns with EINTR, and the wait loop looks
  sigaction(SIGINT, &action, &saved_->interrupt);
  sigaction(SIGTERM, &action, &saved_->terminate);
}

InterruptionGuard::~InterruptionGuard() {
  sigaction(SIGINT, &saved_->interrupt, nullptr);
  sigaction(SIGTERM, &saved_->terminate, nullptr);
  delete saved_;
}

int InterruptionGuard::received() {
  return received_signal;
}

void block_interruption() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigprocmask(SIG_BLOCK, &signals, nullptr);
}

} // namespace sonicsim
