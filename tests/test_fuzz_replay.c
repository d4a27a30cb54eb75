// SPDX-License-Identifier: MIT
// Replays the fuzz seed corpora (fuzz/corpus/<target>/) and every input a fuzzer ever failed on
// (fuzz/regressions/<target>/) through the same entry functions the libFuzzer targets call. An
// entry function aborts on a violated invariant, so a regression shows up as a crashed test; the
// name of each input is printed first, so the last name in the log is the culprit.

#define _XOPEN_SOURCE 700

#include "fuzz_entry.h"

#include <check.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef ARCNAV_FUZZ_DIR
#error "ARCNAV_FUZZ_DIR must name the fuzz/ directory"
#endif

typedef int (*fuzz_entry)(const uint8_t *data, size_t size);

typedef struct fuzz_target {
  const char *name;
  fuzz_entry entry;
} fuzz_target;

static const fuzz_target targets[] = {
    {"planner", an_fuzz_planner}, {"living", an_fuzz_living}, {"cdt", an_fuzz_cdt},
#ifdef ARCNAV_FUZZ_READERS
    {"geojson", an_fuzz_geojson}, {"neerc", an_fuzz_neerc},   {"gridmap", an_fuzz_gridmap},
#endif
};

static uint8_t *read_all(const char *path, size_t *out_size) {
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  size_t capacity = 4096, size = 0;
  uint8_t *data = malloc(capacity);
  ck_assert_ptr_nonnull(data);
  size_t got;
  while ((got = fread(data + size, 1, capacity - size, f)) > 0) {
    size += got;
    if (size == capacity) {
      capacity *= 2;
      data = realloc(data, capacity);
      ck_assert_ptr_nonnull(data);
    }
  }
  fclose(f);
  *out_size = size;
  return data;
}

// Runs every regular file of `dir` through `entry`; returns how many there were.
static size_t replay_dir(const char *dir, fuzz_entry entry) {
  DIR *d = opendir(dir);
  if (d == NULL) {
    return 0;
  }
  size_t count = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    char path[1024];
    int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    ck_assert(n > 0 && (size_t)n < sizeof path);
    struct stat info;
    if (e->d_name[0] == '.' || stat(path, &info) != 0 || !S_ISREG(info.st_mode)) {
      continue;
    }
    size_t size = 0;
    uint8_t *data = read_all(path, &size);
    fprintf(stderr, "replay %s (%zu bytes)\n", path, size);
    ck_assert_int_eq(entry(data, size), 0);
    free(data);
    count++;
  }
  closedir(d);
  return count;
}

START_TEST(corpus_and_regressions_pass) {
  const fuzz_target *t = &targets[_i];
  char dir[512];
  snprintf(dir, sizeof dir, "%s/corpus/%s", ARCNAV_FUZZ_DIR, t->name);
  size_t seeds = replay_dir(dir, t->entry);
  // An empty or missing seed corpus would make this test pass vacuously.
  ck_assert_msg(seeds >= 3, "%s: only %zu seed inputs", dir, seeds);
  snprintf(dir, sizeof dir, "%s/regressions/%s", ARCNAV_FUZZ_DIR, t->name);
  replay_dir(dir, t->entry);
}
END_TEST

// The entry functions must stay quiet on trivial input: empty, one byte, all bytes 0xFF.
START_TEST(trivial_inputs_pass) {
  const fuzz_target *t = &targets[_i];
  uint8_t ones[64];
  memset(ones, 0xFF, sizeof ones);
  ck_assert_int_eq(t->entry(ones, 0), 0);
  ck_assert_int_eq(t->entry(ones, 1), 0);
  ck_assert_int_eq(t->entry(ones, sizeof ones), 0);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("fuzz_replay");
  TCase *tc = tcase_create("replay");
  tcase_set_timeout(tc, 120);
  int n = (int)(sizeof targets / sizeof targets[0]);
  tcase_add_loop_test(tc, corpus_and_regressions_pass, 0, n);
  tcase_add_loop_test(tc, trivial_inputs_pass, 0, n);
  suite_add_tcase(suite, tc);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? 0 : 1;
}
