// Internal to the job client (job_client.cpp, job_client_retries.cpp): one remote call in flight (a Sender)
// and one thread of a job, which both files drive.
#pragma once

#include "sim/components/job_client.hpp"
#include "sim/kernel/event_calendar.hpp"

#include "sim/random/random_engine.hpp"
#include <memory>
#include <vector>

namespace sonicsim {

// One of a remote module's concurrent calls: the request it has in flight and where that request is.
struct JobClient::Sender final : RequestOwner {
  JobClient* job = nullptr;
  Thread* thread = nullptr;
  int batch_size = 0;
  int attempt = 0;
  double input_bytes = 0.0;
  double output_bytes = 0.0;
  double sent_at_s = 0.0;
  InferenceRequest* request = nullptr; // from the run's RequestStore, kept from try to try
  const Route* route = nullptr;        // of the current try
  // Bumped when the client gives up a try (timeout): that try's pending callbacks then do nothing.
  unsigned serial = 0;
  bool at_server = false;   // a server holds the request: submitted, neither answered nor lost yet
  bool to_fallback = false; // the tries on the remote servers are spent: the fallback server's turn
  std::optional<int> pool_pod, last_pod; // the pool pod this try counts against; the previous try's pod
  CalendarEvent timeout;
  void answered(InferenceRequest&) override {
    at_server = false;
    // Not inside the server's own call: what the job does next may submit to it again.
    calendar::defer(job->counted([this, serial = serial]() {
      if (!job->context_.stopped && this->serial == serial) job->reply(*this);
    }));
  }
  void lost(InferenceRequest&) override {
    at_server = false; // its timeout will tell
    if (auto* operations = job->context_.recorder.operations()) operations->request_lost();
  }
  void reset(InferenceRequest&) override {
    at_server = false;
    // Not inside the server's own call, as answered.
    calendar::defer(job->counted([this, serial = serial]() {
      if (!job->context_.stopped && this->serial == serial) job->reset_by_proxy(*this);
    }));
  }
};

// One thread (CMSSW stream) of the job: its random stream, the event it is on, and its remote module's calls.
struct JobClient::Thread {
  RandomEngine rng;
  EventRecord event;
  std::size_t module = 0;
  double module_start_s = 0.0;
  const Module* remote = nullptr;
  const Connection* connection = nullptr;
  std::vector<int> requests;
  std::size_t next_request = 0;
  int senders_running = 0;
  bool failed = false;
  bool failed_by_timeout = false; // the event failed because a request went unanswered
  bool used_fallback = false;     // a request of the event went to the fallback server
  bool in_event = false;          // between an event's start and its end
  // Each sender on its own: growing the list never moves one, whose address a flow of a given-up try may
  // still hold. (A deque did the same, but holds a 512-byte block from its construction on, a sixth of a
  // job.)
  std::vector<std::unique_ptr<Sender>> senders;
  // campaign.finish_events: this event started before the window's end (it is waited for and counted), or
  // after it (it keeps the site loaded, and is not recorded).
  bool open_at_end = false, after_end = false;
};

} // namespace sonicsim
