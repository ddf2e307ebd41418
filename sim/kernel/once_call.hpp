// A callable run once, stored in place when small: the calendar's events, a flow's end, a deferred reply.
//
// Why not std::function: its buffer holds 16 bytes, and the clients' callbacks (the client, the sender, its
// try's serial, a date) hold 24 to 40, so every request's flows and reply allocated and freed three of them
// (malloc and free were ~5 % of a run). Here up to `inline_bytes` live in the object; a larger callable goes
// to the heap. Moving one moves the callable (its own move constructor), so vectors of them may grow.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace sonicsim {

class OnceCall {
public:
  static constexpr std::size_t inline_bytes = 56; // the CMS clients' compute steps hold 56
  OnceCall() = default;
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, OnceCall>>>
  OnceCall(F&& f) { // NOLINT(google-explicit-constructor): a lambda passed where a call is wanted
    emplace(std::forward<F>(f));
  }
  OnceCall(const OnceCall&) = delete;
  OnceCall& operator=(const OnceCall&) = delete;
  OnceCall(OnceCall&& other) noexcept { take(other); }
  OnceCall& operator=(OnceCall&& other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  ~OnceCall() { reset(); }

  template <class F> void emplace(F&& f) {
    using Stored = std::decay_t<F>;
    reset();
    if constexpr (sizeof(Stored) <= inline_bytes && alignof(Stored) <= alignof(std::max_align_t) &&
                  std::is_nothrow_move_constructible_v<Stored>) {
      new (storage_) Stored(std::forward<F>(f));
      invoke_ = [](void* at) { (*static_cast<Stored*>(at))(); };
      manage_ = [](void* at, void* to) {
        if (to) new (to) Stored(std::move(*static_cast<Stored*>(at)));
        static_cast<Stored*>(at)->~Stored();
      };
    } else {
      *reinterpret_cast<Stored**>(storage_) = new Stored(std::forward<F>(f));
      invoke_ = [](void* at) { (**static_cast<Stored**>(at))(); };
      manage_ = [](void* at, void* to) {
        if (to)
          *static_cast<Stored**>(to) = *static_cast<Stored**>(at); // the pointer changes hands
        else
          delete *static_cast<Stored**>(at);
      };
    }
  }
  void operator()() { invoke_(storage_); }
  bool empty() const { return invoke_ == nullptr; }
  void reset() {
    if (manage_) manage_(storage_, nullptr);
    invoke_ = nullptr;
    manage_ = nullptr;
  }

private:
  void take(OnceCall& other) noexcept {
    if (!other.invoke_) return;
    other.manage_(other.storage_, storage_); // moved here, and the moved-from one destroyed
    invoke_ = other.invoke_;
    manage_ = other.manage_;
    other.invoke_ = nullptr;
    other.manage_ = nullptr;
  }

  alignas(std::max_align_t) unsigned char storage_[inline_bytes];
  void (*invoke_)(void*) = nullptr;
  // Destroys the callable at `at`; with `to`, moves it there first.
  void (*manage_)(void* at, void* to) = nullptr;
};

} // namespace sonicsim
