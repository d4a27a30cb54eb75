// SPDX-License-Identifier: MIT
#pragma once

// Runs the built `arcnav` tool for the CLI tests: a temporary directory for its files, standard
// input from a file, standard output and error captured, the exit status decoded. The including
// file defines ARCNAV_CLI_PATH (CMake does) and _XOPEN_SOURCE 700 before any system header.

#include <check.h>
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef ARCNAV_CLI_PATH
#error "ARCNAV_CLI_PATH must name the built arcnav executable"
#endif

extern char **environ;

typedef struct run_result {
  int code; ///< exit status, or 128 + signal when the tool was killed
  char *out;
  char *err;
} run_result;

static inline char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  ck_assert_ptr_nonnull(buf);
  size_t got;
  while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    if (cap - len < 2) {
      cap *= 2;
      buf = realloc(buf, cap);
      ck_assert_ptr_nonnull(buf);
    }
  }
  fclose(f);
  buf[len] = '\0';
  return buf;
}

static inline void join(char *out, size_t size, const char *dir, const char *name) {
  int n = snprintf(out, size, "%s/%s", dir, name);
  ck_assert(n > 0 && (size_t)n < size);
}

/// Write `text` as the file `name` in `dir`.
static inline void write_text(const char *dir, const char *name, const char *text) {
  char path[1024];
  join(path, sizeof path, dir, name);
  FILE *f = fopen(path, "wb");
  ck_assert_msg(f != NULL, "cannot create %s", path);
  fputs(text, f);
  fclose(f);
}

static inline void make_temp_dir(char *out, size_t size) {
  const char *base = getenv("TMPDIR");
  int n = snprintf(out, size, "%s/arcnav_cli_XXXXXX", base != NULL ? base : "/tmp");
  ck_assert(n > 0 && (size_t)n < size);
  ck_assert_ptr_nonnull(mkdtemp(out));
}

static inline int remove_entry(const char *path, const struct stat *info, int flag,
                               struct FTW *ftw) {
  (void)info;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static inline void remove_temp_dir(const char *dir) {
  nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

// Run `program` with `args` (NULL-terminated, without argv[0]); standard input from `input`
// (or /dev/null); output captured through files in `dir`.
static inline run_result run_program(const char *dir, const char *input, const char *program,
                                     const char *const *args) {
  char out_path[1024], err_path[1024];
  join(out_path, sizeof out_path, dir, "stdout.txt");
  join(err_path, sizeof err_path, dir, "stderr.txt");
  const char *argv[32];
  size_t argc = 0;
  argv[argc++] = program;
  for (size_t i = 0; args[i] != NULL; i++) {
    ck_assert(argc + 1 < sizeof argv / sizeof argv[0]);
    argv[argc++] = args[i];
  }
  argv[argc] = NULL;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, input != NULL ? input : "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid;
  int rc = posix_spawn(&pid, program, &actions, NULL, (char *const *)argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ck_assert_msg(rc == 0, "cannot start %s", program);
  int status = 0;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  run_result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

// Run the built tool.
static inline run_result run_cli(const char *dir, const char *input, const char *const *args) {
  return run_program(dir, input, ARCNAV_CLI_PATH, args);
}

static inline void free_result(run_result *r) {
  free(r->out);
  free(r->err);
}

static inline size_t count_lines(const char *text) {
  size_t n = 0;
  for (const char *c = text; *c != '\0'; c++) {
    n += *c == '\n';
  }
  return n;
}
