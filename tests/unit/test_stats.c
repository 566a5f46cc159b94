#include "stats.h"
#include "testing.h"

static void odd_count_takes_middle(void) {
  const double x[] = {5, 1, 9, 3, 7};
  stats_summary s;
  stats_summarize(x, 5, &s);
  CHECK(s.n == 5);
  CHECK_NEAR(s.median, 5, 0);
  CHECK_NEAR(s.min, 1, 0);
  CHECK_NEAR(s.max, 9, 0);
  CHECK_NEAR(s.mean, 5, 1e-12);
}

static void even_count_averages_middle_pair(void) {
  const double x[] = {4, 1, 3, 2};
  stats_summary s;
  stats_summarize(x, 4, &s);
  CHECK_NEAR(s.median, 2.5, 0);
  CHECK_NEAR(stats_spread(&s), 3 / 2.5, 1e-12);
}

static void input_is_not_reordered(void) {
  double x[] = {3, 1, 2};
  stats_summary s;
  stats_summarize(x, 3, &s);
  CHECK(x[0] == 3 && x[1] == 1 && x[2] == 2);
}

static void empty_and_single(void) {
  stats_summary s;
  stats_summarize(NULL, 0, &s);
  CHECK(s.n == 0);
  CHECK_NEAR(stats_spread(&s), 0, 0);
  const double one = 42;
  stats_summarize(&one, 1, &s);
  CHECK_NEAR(s.median, 42, 0);
  CHECK_NEAR(s.min, 42, 0);
  CHECK_NEAR(s.max, 42, 0);
}

int main(void) {
  odd_count_takes_middle();
  even_count_averages_middle_pair();
  input_is_not_reordered();
  empty_and_single();
  return test_summary();
}
