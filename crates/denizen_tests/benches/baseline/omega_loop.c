/* The comparison point of docs/BENCHMARKS.md: the same placement rules as a plain C
 * loop over libc random(), the way the original game draws them. Not built by cargo.
 *
 *   gcc -O2 -o /tmp/omega_loop benches/baseline/omega_loop.c && /tmp/omega_loop
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int R(int k) { return k == 0 ? 0 : (int)(((long)(random() % 10000) * k) / 10000); }

/* Catalogue positions of reserved templates (Hiscore NPC, Goblin King, Great Wyrm, band 10). */
static int reserved(int id) { return id == 8 || id == 50 || id == 110 || id >= 140; }
static const int ML[] = {0, 9, 31, 45, 60, 78, 92, 105, 120, 132, 140, 150};

static int pool(int difficulty) {
  int boundary = (difficulty >= 0 && difficulty <= 9) ? ML[difficulty + 1] : 150;
  int id;
  do id = R(boundary); while (reserved(id));
  return id;
}

static int caves(int depth) {
  int difficulty = depth / 3 + 1;
  if (10 * depth + R(100) > 150) return 52;
  if (10 * depth + R(100) > 100) return 40;
  if (R(100) > 50) return 15;
  return pool(difficulty);
}

static const int astral_list[12] = {59, 71, 75, 76, 85, 87, 89, 101, 109, 114, 115, 128};
static const int deep_list[12] = {32, 72, 73, 82, 90, 102, 103, 119, 125, 131, 139, 138};

static int astral(int depth) {
  if (R(2) == 1) return astral_list[R(12)];
  if (R(2) && depth == 1) return 95;
  if (R(2) && depth == 2) return 93;
  if (R(2) && depth == 3) return 94;
  if (R(2) && depth == 4) return 92;
  if (R(2) && depth == 5) return deep_list[R(12)];
  return pool(8);
}

static void measure(const char *name, int (*rule)(int), int arg) {
  const long n = 50000000;
  long sum = 0;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long i = 0; i < n; i++) sum += rule(arg);
  clock_gettime(CLOCK_MONOTONIC, &b);
  double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
  printf("%-16s %6.1f million placements per second (checksum %ld)\n", name, n / s / 1e6, sum);
}

static int pool7(int unused) { (void)unused; return pool(7); }

int main(void) {
  srandom(1);
  measure("pool:7", pool7, 0);
  measure("goblin-caves:1", caves, 1);
  measure("goblin-caves:5", caves, 5);
  measure("astral:3", astral, 3);
  measure("astral:5", astral, 5);
  return 0;
}
