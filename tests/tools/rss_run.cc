// rss_run OUT CMD [ARGS...]: runs CMD, waits for it with wait4 and writes
// its peak resident set size to OUT (`peak_rss_kb N`); exits as CMD did
// (128 + the signal when it was killed by one). The golden runner uses it
// to hold a program to its real-bytes bound (runtime.md §2).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: rss_run OUT CMD [ARGS...]\n");
    return 64;
  }
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("fork");
    return 71;
  }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    std::perror("exec");
    _exit(127);
  }
  int status = 0;
  struct rusage ru {};
  while (wait4(pid, &status, 0, &ru) < 0) {
  }
  if (FILE* f = std::fopen(argv[1], "w")) {
    std::fprintf(f, "peak_rss_kb %ld\n", ru.ru_maxrss);
    std::fclose(f);
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}
