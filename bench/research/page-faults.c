// What this machine charges for fresh memory: the first write to each 4 KiB page
// of a new mapping (a page fault), against rewriting memory already touched. In
// the browsers, every fresh result array whose pages the allocator did not
// recycle pays this (bench/README.md, "Fresh memory"; page-cost.mjs measures it
// from JavaScript in every run).
//   gcc -O2 bench/research/page-faults.c -o /tmp/page-faults && /tmp/page-faults
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(void) {
  const size_t sizes[] = {40960, 409600, 4096000};
  const int reps = 200;
  for (int s = 0; s < 3; s++) {
    const size_t n = sizes[s];
    double t0 = now_us();
    for (int r = 0; r < reps; r++) {
      char* p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) return 1;
      for (size_t i = 0; i < n; i += 4096) p[i] = 1;
      munmap(p, n);
    }
    const double fresh = (now_us() - t0) / reps;
    char* buf = malloc(n);
    memset(buf, 1, n);
    t0 = now_us();
    for (int r = 0; r < reps; r++) {
      memset(buf, r, n);
      __asm__ volatile("" : : "r"(buf) : "memory");  // keeps every memset
    }
    const double reused = (now_us() - t0) / reps;
    printf("%8zu bytes: fresh pages %9.1f us (%.2f us per page), memset of touched memory %7.1f us\n", n, fresh,
           fresh / (n / 4096.0), reused);
    free(buf);
  }
  return 0;
}
