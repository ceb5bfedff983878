#include "process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "course/protocol.hpp"
#include "course/text_file.hpp"

namespace driver {

namespace {

// The signal (Ctrl-C, SIGTERM, SIGHUP) that asked the grader to stop while a test process ran.
// Lock-free, so a signal handler may set it; read by every thread that watches a test process.
std::atomic<int> stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);
extern "C" void remember_stop_signal(int sig) {
  stop_signal = sig;
}

// While a test process runs, those signals only set stop_signal; the destructor restores what was
// there before. The test process has its own process group (so that a kill reaches everything it
// started), which also keeps the terminal's Ctrl-C from reaching it: the grader must pass it on.
// Two test processes may be watched at once (the default grade runs memcheck beside the hidden
// tests, on two threads): the first watcher installs the handlers, the last restores them, and
// every watcher kills its own process when stop_signal is set.
class StopSignals {
 public:
  StopSignals() {
    const std::lock_guard<std::mutex> hold(state().mutex);
    if (state().watchers++ > 0) return;
    struct sigaction catch_it {};
    catch_it.sa_handler = remember_stop_signal;
    sigemptyset(&catch_it.sa_mask);
    for (int i = 0; i < 3; ++i) {
      sigaction(kSignals[i], nullptr, &state().old[i]);
      // Ignored on entry (a background job of a script, nohup): the grader was told not to stop
      // on it, so it must not stop the test process on it either.
      state().caught[i] = state().old[i].sa_handler != SIG_IGN;
      if (state().caught[i]) sigaction(kSignals[i], &catch_it, nullptr);
    }
  }
  ~StopSignals() {
    const std::lock_guard<std::mutex> hold(state().mutex);
    if (--state().watchers > 0) return;
    for (int i = 0; i < 3; ++i)
      if (state().caught[i]) sigaction(kSignals[i], &state().old[i], nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  struct State {
    std::mutex mutex;
    int watchers = 0;
    struct sigaction old[3]{};
    bool caught[3] = {};
  };
  static State& state() {
    static State s;
    return s;
  }
};

std::vector<char*> c_argv(const std::vector<std::string>& argv) {
  std::vector<char*> out;
  for (const std::string& a : argv) out.push_back(const_cast<char*>(a.c_str()));
  out.push_back(nullptr);
  return out;
}

// Test processes killed once their report said they were done (WatchedChild::done_at_exit_record)
// and not waited for: reaped by wait_for_ended_test_processes() before the grader's next GPU
// work, or by init once the grader has exited. Each is waited for until kEndedWaitSeconds after
// its kill at most, over all calls: a process whose teardown hangs in the driver costs that once.
// waitpid() is called with the mutex held only, so no pid is reaped twice.
constexpr double kEndedWaitSeconds = 5.0;
struct Ended {
  pid_t pid;
  std::chrono::steady_clock::time_point give_up;  ///< waited for until then
};
struct Unreaped {
  std::mutex mutex;
  std::vector<Ended> ended;
};
Unreaped& unreaped() {
  static Unreaped u;
  return u;
}

}  // namespace

void note_ended_test_process(int pid) {
  const auto give_up = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(kEndedWaitSeconds));
  const std::lock_guard<std::mutex> hold(unreaped().mutex);
  unreaped().ended.push_back({pid, give_up});
}

void wait_for_ended_test_processes() {
  Unreaped& u = unreaped();
  for (;;) {
    bool waiting = false;
    {
      const std::lock_guard<std::mutex> hold(u.mutex);
      const auto now = std::chrono::steady_clock::now();
      std::vector<Ended> left;
      for (const Ended& e : u.ended) {
        if (waitpid(e.pid, nullptr, WNOHANG) != 0) continue;  // reaped now (or not a child)
        left.push_back(e);
        waiting |= now < e.give_up;
      }
      u.ended.swap(left);
    }
    if (!waiting) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

Captured run_capture(const std::vector<std::string>& argv, const std::string& cwd,
                     const std::string* input) {
  Captured result;
  // Close-on-exec: a child that another thread starts meanwhile (memcheck beside the tests) must
  // not keep this pipe open, or the read below would wait for that child to end. dup2() gives the
  // child's own ends without the flag.
  int fds[2], in[2] = {-1, -1};
  if (pipe2(fds, O_CLOEXEC) != 0) return result;
  if (input && pipe2(in, O_CLOEXEC) != 0) {
    close(fds[0]);
    close(fds[1]);
    return result;
  }
  std::vector<char*> args = c_argv(argv);  // before fork(): the child only calls exec
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {fds[0], fds[1], in[0], in[1]})
      if (fd >= 0) close(fd);
    return result;
  }
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    if (input) {
      dup2(in[0], STDIN_FILENO);
      close(in[0]);
      close(in[1]);
    }
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  if (input) {
    // The whole input is written before any output is read: meant for small inputs and programs
    // that read all of theirs before they write (sha256sum). A child that exits without reading
    // makes write() fail with EPIPE instead of killing the grader with SIGPIPE.
    close(in[0]);
    struct sigaction ignore {
    }, previous{};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &previous);
    for (std::size_t done = 0; done < input->size();) {
      const ssize_t w = write(in[1], input->data() + done, input->size() - done);
      if (w <= 0 && errno != EINTR) break;
      if (w > 0) done += static_cast<std::size_t>(w);
    }
    close(in[1]);
    sigaction(SIGPIPE, &previous, nullptr);
  }
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) result.output.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

int start_in_own_group(const std::vector<std::string>& argv, const std::string& log_path) {
  std::vector<char*> args = c_argv(argv);  // before fork(): the child only calls exec
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    setpgid(0, 0);  // own process group: a kill reaches anything it started too
    const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (log >= 0) {
      dup2(log, STDOUT_FILENO);
      dup2(log, STDERR_FILENO);
      close(log);
    }
    const int null_in = open("/dev/null", O_RDONLY);
    if (null_in >= 0) dup2(null_in, STDIN_FILENO);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent, so the group exists before any kill
  return pid;
}

ChildEnd run_watched(const WatchedChild& child) {
  using clock = std::chrono::steady_clock;
  ChildEnd end;
  if (child.stop != nullptr && child.stop->load()) {  // stopped before it started
    end.stopped = true;
    return end;
  }
  // The previous test process's context must be gone first: on a GPU in an exclusive compute mode
  // this one could not make its own, and that process still holds its locks.
  wait_for_ended_test_processes();
  const auto started = clock::now();
  std::optional<StopSignals> catching(std::in_place);
  const pid_t pid = start_in_own_group(child.argv, child.log_path);
  if (pid < 0) return end;

  std::string current;      // test that has started and not ended
  std::size_t waiting = 0;  // its "waiting_for_quiet_gpu" records
  bool said_waiting = false;
  auto since = clock::now();
  off_t seen_size = -1;
  int status = 0;
  std::optional<int> done_code;  // from the "exit" record, with done_at_exit_record
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (stop_signal) {  // the user stopped the grader: the test process goes first
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    if (child.stop != nullptr && child.stop->load()) {  // the grade no longer needs it
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      end.stopped = true;
      break;
    }
    struct stat st {};
    if (stat(child.report_path.c_str(), &st) == 0 && st.st_size != seen_size) {
      seen_size = st.st_size;
      const course::protocol::ChildLog log =
          course::protocol::parse_log(course::read_text(child.report_path).value_or(""));
      // A test that waits for the GPU (harness/quiet_gpu.hpp) says so once a second: it is alive.
      if (log.running != current || log.running.empty() || log.waiting != waiting)
        since = clock::now();
      current = log.running;
      waiting = log.waiting;
      if (child.done_at_exit_record && log.exit_code) {  // every result is in
        done_code = log.exit_code;
        break;
      }
      // After 3 s: a wait of a second or two is not worth a line.
      if (child.say_when_waiting_on_machine && log.waiting_on_machine >= 3 && !said_waiting) {
        said_waiting = true;
        fmt::print(stderr,
                   "waiting for the GPU: another grade or test of the course on this machine is "
                   "using it; the timed tests start once they have it alone ...\n");
      }
    }
    const double quiet = std::chrono::duration<double>(clock::now() - since).count();
    const double limit = current.empty() ? child.idle_timeout : child.test_timeout;
    if (quiet > limit) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      end.timed_out = true;
      end.timed_out_test = current;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // Anything the child left running in its group goes with it.
  kill(-pid, SIGKILL);
  if (done_code) note_ended_test_process(pid);  // killed in its teardown: not waited for here
  catching.reset();
  // Handlers restored: the signal now ends the grader (while another watcher runs, its handler
  // catches it again, that watcher kills its own process, and the last one ends the grader).
  if (const int sig = stop_signal) {
    stop_signal = 0;
    raise(sig);
  }
  end.exited = done_code || (WIFEXITED(status) && !end.timed_out && !end.stopped);
  end.code = done_code ? *done_code : WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  end.signal = !done_code && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  end.seconds = std::chrono::duration<double>(clock::now() - started).count();
  return end;
}

std::string describe(const ChildEnd& end) {
  if (end.timed_out)
    return end.timed_out_test.empty() ? "stopped by the grader: no progress within the time limit"
                                      : "stopped by the grader: the test ran past its time limit";
  if (end.signal) return fmt::format("killed by signal {} ({})", end.signal, strsignal(end.signal));
  return fmt::format("exited with code {}", end.code);
}

std::string this_grader(const std::string& fallback) {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : fallback;
}

}  // namespace driver
