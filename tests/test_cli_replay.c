// SPDX-License-Identifier: MIT
// End-to-end tests of `arcnav replay` (docs/CLI.md, "Replay scripts"): one answer line per
// operation, refusals that change nothing, and paths on the living map that equal those `arcnav
// path` finds on the map the script saved, read back from the file and built from scratch.
// Expected lengths are derived by hand where the geometry allows.

#define _XOPEN_SOURCE 700

#include <cJSON.h>
#include <math.h>

#include "arcnav/arcnav.h"
#include "cli_runner.h"

// The answer lines of a run, parsed; ck-fails on a line that is not a JSON object.
typedef struct answers {
  cJSON *lines[64];
  size_t count;
} answers;

static answers parse_answers(const char *out) {
  answers a = {{NULL}, 0};
  const char *line = out;
  while (*line != '\0') {
    const char *end = strchr(line, '\n');
    ck_assert_msg(end != NULL, "answer without a newline: %s", line);
    ck_assert_uint_lt(a.count, 64);
    cJSON *json = cJSON_ParseWithLength(line, (size_t)(end - line));
    ck_assert_msg(cJSON_IsObject(json), "not a JSON object: %.*s", (int)(end - line), line);
    a.lines[a.count++] = json;
    line = end + 1;
  }
  return a;
}

static void free_answers(answers *a) {
  for (size_t i = 0; i < a->count; i++) {
    cJSON_Delete(a->lines[i]);
  }
}

static bool answer_ok(const answers *a, size_t i) {
  ck_assert_uint_lt(i, a->count);
  const cJSON *micros = cJSON_GetObjectItemCaseSensitive(a->lines[i], "micros");
  ck_assert_msg(cJSON_IsNumber(micros) && micros->valuedouble >= 0, "line %zu has no micros", i);
  return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a->lines[i], "ok"));
}

static const char *answer_string(const answers *a, size_t i, const char *key) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(a->lines[i], key);
  ck_assert_msg(cJSON_IsString(item), "answer %zu has no string \"%s\"", i, key);
  return item->valuestring;
}

static double answer_number(const answers *a, size_t i, const char *key) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(a->lines[i], key);
  ck_assert_msg(cJSON_IsNumber(item), "answer %zu has no number \"%s\"", i, key);
  return item->valuedouble;
}

// The length `arcnav path` finds on `map` for the query, or -1 without a path.
static double path_length(const char *dir, const char *map, const char *radius, const char *from,
                          const char *to) {
  const char *args[] = {"path", "--map", map, "--radius", radius, "--from", from, "--to", to, NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_msg(r.code == 0 || r.code == 1, "arcnav path: exit %d: %s", r.code, r.err);
  cJSON *json = cJSON_Parse(r.out);
  ck_assert(cJSON_IsObject(json));
  double length = r.code == 0 ? cJSON_GetObjectItemCaseSensitive(json, "length")->valuedouble : -1;
  cJSON_Delete(json);
  free_result(&r);
  return length;
}

// A corridor [0, 40] x [0, 10], closed by a wall across it at x in [19, 21].
static const char corridor[] =
    "{\"type\":\"FeatureCollection\",\"features\":[\n"
    "{\"type\":\"Feature\",\"properties\":{\"role\":\"bounds\"},\"geometry\":{\"type\":\"Polygon\","
    "\"coordinates\":[[[0,0],[40,0],[40,10],[0,10],[0,0]]]}},\n"
    "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\","
    "\"coordinates\":[[[19,-1],[21,-1],[21,11],[19,11],[19,-1]]]}}]}\n";

START_TEST(replay_follows_the_living_map) {
  char dir[512], map[1024], script[1024], saved[1024], saved2[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "corridor.geojson", corridor);
  join(map, sizeof map, dir, "corridor.geojson");
  join(saved, sizeof saved, dir, "saved.geojson");
  join(saved2, sizeof saved2, dir, "saved2.geojson");
  char text[4096];
  snprintf(text, sizeof text,
           "{\"op\":\"load\",\"map\":\"%s\"}\n"
           "{\"op\":\"path\",\"from\":[5,5],\"to\":[35,5],\"radius\":1}\n"
           "{\"op\":\"move\",\"name\":\"#0\",\"by\":[0,4]}\n"
           "{\"op\":\"path\",\"from\":[5,5],\"to\":[35,5],\"radius\":1}\n"
           "{\"op\":\"save\",\"out\":\"%s\"}\n"
           "\n"
           "{\"op\":\"add\",\"name\":\"unit\",\"circle\":{\"center\":[10,5],\"radius\":1},"
           "\"soft\":true}\n"
           "{\"op\":\"add\",\"name\":\"unit\",\"circle\":{\"center\":[12,5],\"radius\":1}}\n"
           "{\"op\":\"add\",\"name\":\"bowtie\",\"polygon\":[[30,2],[32,4],[32,2],[30,4]]}\n"
           "{\"op\":\"remove\",\"name\":\"#0\"}\n"
           "{\"op\":\"path\",\"from\":[5,5],\"to\":[35,5],\"radius\":1}\n"
           "{\"op\":\"path\",\"from\":[5,5],\"to\":[35,5],\"radius\":1,\"ignore\":[\"unit\"]}\n"
           "{\"op\":\"path\",\"from\":[5,5],\"to\":[35,5],\"radius\":1,\"ignore\":[\"nobody\"]}\n"
           "{\"op\":\"reachable\",\"from\":[4.5,5],\"to\":[35,5],\"radius\":4.5}\n"
           "{\"op\":\"save\",\"out\":\"%s\"}\n"
           "{\"op\":\"move\",\"name\":\"unit\",\"by\":[1e300,0]}\n"
           "{\"op\":\"path\",\"from\":[10,5],\"to\":[35,5],\"radius\":0,\"ignore\":[\"unit\"]}\n"
           "{\"op\":\"path\",\"from\":[10,5],\"to\":[35,5],\"radius\":0.5,\"ignore\":[\"unit\"]}\n",
           map, saved, saved2);
  write_text(dir, "script.jsonl", text);
  join(script, sizeof script, dir, "script.jsonl");
  const char *args[] = {"replay", script, NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_msg(r.code == 0, "exit %d: %s", r.code, r.err);
  answers a = parse_answers(r.out);
  ck_assert_uint_eq(a.count, 17); // the blank line is skipped
  static const char *const ops[] = {"load",      "path", "move",   "path", "save", "add",
                                    "add",       "add",  "remove", "path", "path", "path",
                                    "reachable", "save", "move",   "path", "path"};
  static const bool ok[] = {true, true, true,  true, true, true,  false, false, true,
                            true, true, false, true, true, false, true,  true};
  for (size_t i = 0; i < a.count; i++) {
    ck_assert_str_eq(answer_string(&a, i, "op"), ops[i]);
    ck_assert_msg(answer_ok(&a, i) == ok[i], "answer %zu: ok should be %d", i, ok[i]);
    if (!ok[i]) {
      // Refusals say where and why.
      char line[16];
      snprintf(line, sizeof line, "line %zu:", i < 5 ? i + 1 : i + 2);
      ck_assert_msg(strstr(answer_string(&a, i, "error"), line) != NULL, "answer %zu: %s", i,
                    answer_string(&a, i, "error"));
    }
  }
  ck_assert_double_eq(answer_number(&a, 0, "obstacles"), 1);
  // The wall closes the corridor; moved up by 4 it leaves a gap of 4 for a disk of radius 1.
  ck_assert_str_eq(answer_string(&a, 1, "status"), "no_path");
  ck_assert_str_eq(answer_string(&a, 3, "status"), "ok");
  double detour = answer_number(&a, 3, "length");
  ck_assert(detour > 30 + 1e-6);
  ck_assert_double_eq_tol(detour, path_length(dir, saved, "1", "5,5", "35,5"), 1e-9 * detour);
  // The wall gone, the unit on the straight line makes the disk go round it; told to ignore the
  // unit, the way is the straight line of length 30.
  ck_assert_str_eq(answer_string(&a, 9, "status"), "ok");
  double around = answer_number(&a, 9, "length");
  ck_assert(around > 30 + 1e-6);
  ck_assert_double_eq_tol(around, path_length(dir, saved2, "1", "5,5", "35,5"), 1e-9 * around);
  ck_assert_str_eq(answer_string(&a, 10, "status"), "ok");
  ck_assert_double_eq_tol(answer_number(&a, 10, "length"), 30, 1e-12);
  // From the unit's own centre, ignoring it: a point agent (a planner of its own) and a disk (the
  // planner for its radius, told to ignore the unit) both go straight.
  for (size_t i = 15; i < 17; i++) {
    ck_assert_str_eq(answer_string(&a, i, "status"), "ok");
    ck_assert_double_eq_tol(answer_number(&a, i, "length"), 25, 1e-12);
  }
  // A disk of radius 4.5 does not fit past the unit (gaps of 4 either side) in a corridor 10 wide.
  ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(a.lines[12], "reachable")));
  ck_assert_str_eq(answer_string(&a, 12, "status"), "no_path");
  ck_assert(cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(a.lines[12], "searched")));
  ck_assert_double_eq(answer_number(&a, 13, "obstacles"), 1);
  // The saved file names its obstacles and marks the unit soft.
  char *saved_text = slurp(saved2);
  ck_assert_ptr_nonnull(strstr(saved_text, "\"name\":\"unit\""));
  ck_assert_ptr_nonnull(strstr(saved_text, "\"soft\":true"));
  ck_assert_ptr_nonnull(strstr(saved_text, "\"role\":\"bounds\""));
  free(saved_text);
  free_answers(&a);
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

START_TEST(replay_malformed_lines_exit_2_and_go_on) {
  char dir[512], input[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "script.jsonl",
             "{\"op\":\"add\",\"name\":\"b\",\"polygon\":[[0,0],[4,0],[4,4],[0,4]]}\n"
             "this is not json\n"
             "{\"op\":\"fly\"}\n"
             "[1,2]\n"
             "{\"name\":\"b\"}\n"
             "{\"op\":\"path\",\"from\":[-1,2],\"to\":[5,2]}\n"
             "{\"op\":\"path\",\"from\":[-1,2],\"to\":[5,2],\"radius\":-1}\n"
             "{\"op\":\"path\",\"from\":[-1],\"to\":[5,2]}\n");
  join(input, sizeof input, dir, "script.jsonl");
  const char *args[] = {"replay", "-", NULL};
  run_result r = run_cli(dir, input, args);
  ck_assert_int_eq(r.code, 2);
  answers a = parse_answers(r.out);
  ck_assert_uint_eq(a.count, 8);
  ck_assert(answer_ok(&a, 0));
  for (size_t i = 1; i <= 4; i++) {
    ck_assert(!answer_ok(&a, i));
  }
  ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(a.lines[1], "op")));
  ck_assert_str_eq(answer_string(&a, 2, "op"), "fly");
  ck_assert_ptr_nonnull(strstr(answer_string(&a, 2, "error"), "unknown operation"));
  // Radius 0 by default: round the square [0, 4]^2 from (-1, 2) to (5, 2) over a corner:
  // two lines of sqrt(1 + 4) and the top edge of 4.
  ck_assert(answer_ok(&a, 5));
  ck_assert_str_eq(answer_string(&a, 5, "status"), "ok");
  ck_assert_double_eq_tol(answer_number(&a, 5, "length"), 2 * sqrt(5.0) + 4, 1e-12);
  ck_assert(!answer_ok(&a, 6));
  ck_assert_ptr_nonnull(strstr(answer_string(&a, 6, "error"), "radius"));
  ck_assert(!answer_ok(&a, 7));
  ck_assert_ptr_nonnull(strstr(answer_string(&a, 7, "error"), "from"));
  free_answers(&a);
  free_result(&r);

  const char *missing[] = {"replay", NULL};
  r = run_cli(dir, NULL, missing);
  ck_assert_int_eq(r.code, 2);
  ck_assert_ptr_nonnull(strstr(r.err, "SCRIPT"));
  free_result(&r);
  const char *absent[] = {"replay", "no-such-script.jsonl", NULL};
  r = run_cli(dir, NULL, absent);
  ck_assert_int_eq(r.code, 2);
  ck_assert_ptr_nonnull(strstr(r.err, "no-such-script.jsonl"));
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

static arcnav_vec2 answer_point(const answers *a, size_t i, const char *key) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(a->lines[i], key);
  ck_assert_msg(cJSON_IsArray(item) && cJSON_GetArraySize(item) == 2, "answer %zu has no \"%s\"", i,
                key);
  return (arcnav_vec2){cJSON_GetArrayItem(item, 0)->valuedouble,
                       cJSON_GetArrayItem(item, 1)->valuedouble};
}

// The building [40, 60] x [20, 40] on an open map; every figure below is worked out by hand.
START_TEST(replay_probes_and_partial_paths) {
  char dir[512], script[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(
      dir, "script.jsonl",
      "{\"op\":\"add\",\"name\":\"b\",\"polygon\":[[40,20],[60,20],[60,40],[40,40]]}\n"
      "{\"op\":\"path\",\"from\":[10,10],\"to\":[50,24],\"radius\":1}\n"
      "{\"op\":\"path\",\"from\":[10,10],\"to\":[50,24],\"radius\":1,\"partial\":true}\n"
      "{\"op\":\"nearest\",\"point\":[50,24],\"radius\":1,\"reachable_from\":[10,10]}\n"
      "{\"op\":\"clearance\",\"point\":[50,17]}\n"
      "{\"op\":\"raycast\",\"from\":[10,30],\"dir\":[2,0],\"radius\":1}\n"
      "{\"op\":\"raycast\",\"from\":[10,30],\"dir\":[0,1],\"radius\":1,\"max\":50}\n"
      "{\"op\":\"still_free\",\"path\":{\"radius\":1,\"pieces\":[{\"type\":\"line\",\"from\":[10,"
      "10],\"to\":[70,10]}]}}\n"
      "{\"op\":\"add\",\"name\":\"t\",\"circle\":{\"center\":[30,12],\"radius\":2}}\n"
      "{\"op\":\"still_free\",\"path\":{\"radius\":1,\"pieces\":[{\"type\":\"line\",\"from\":[10,"
      "10],\"to\":[70,10]}]}}\n"
      "{\"op\":\"raycast\",\"from\":[10,30],\"dir\":[0,0],\"radius\":1}\n"
      "{\"op\":\"still_free\",\"path\":{\"pieces\":[]}}\n"
      "{\"op\":\"add\",\"name\":\"room\",\"polygon\":[[70,50],[90,50],[90,70],[70,70]],"
      "\"holes\":[[[74,54],[74,66],[86,66],[86,54]]]}\n"
      "{\"op\":\"nearest\",\"point\":[80,60],\"radius\":1,\"reachable_from\":[10,10]}\n"
      "{\"op\":\"path\",\"from\":[10,10],\"to\":[80,60],\"radius\":1,\"partial\":true}\n");
  join(script, sizeof script, dir, "script.jsonl");
  const char *args[] = {"replay", script, NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_msg(r.code == 0, "exit %d: %s", r.code, r.err);
  answers a = parse_answers(r.out);
  ck_assert_uint_eq(a.count, 15);
  for (size_t i = 0; i < 10; i++) {
    ck_assert_msg(answer_ok(&a, i), "answer %zu refused: %s", i, r.out);
  }
  ck_assert_str_eq(answer_string(&a, 1, "status"), "goal_blocked");
  // The building's nearest side to (50, 24) is its bottom: the disk stands at (50, 19).
  ck_assert_str_eq(answer_string(&a, 2, "status"), "partial");
  ck_assert_double_eq_tol(answer_number(&a, 2, "length"), hypot(40, 9), 1e-6);
  arcnav_vec2 p = answer_point(&a, 3, "point");
  ck_assert_double_eq_tol(p.x, 50, 1e-6);
  ck_assert_double_eq_tol(p.y, 19, 1e-6);
  ck_assert_double_eq_tol(answer_number(&a, 3, "distance"), 5, 1e-6);
  ck_assert_double_eq_tol(answer_number(&a, 4, "distance"), 3, 1e-12);
  p = answer_point(&a, 4, "nearest");
  ck_assert_double_eq_tol(p.x, 50, 1e-12);
  ck_assert_double_eq_tol(p.y, 20, 1e-12);
  // Along y = 30 the disk meets the building's left side x = 40 with its centre at x = 39.
  ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a.lines[5], "hit")));
  ck_assert_double_eq_tol(answer_number(&a, 5, "distance"), 29, 1e-6);
  p = answer_point(&a, 5, "normal");
  ck_assert_double_eq_tol(p.x, -1, 1e-9);
  ck_assert_double_eq_tol(p.y, 0, 1e-9);
  ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(a.lines[6], "hit")));
  // The line y = 10 is free until a tree of radius 2 stands at (30, 12): the disk of radius 1
  // first touches it where its centre is 3 from (30, 12), at x = 30 - sqrt(5).
  ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a.lines[7], "free")));
  ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(a.lines[9], "free")));
  ck_assert_double_eq_tol(answer_number(&a, 9, "first_contact"), 20 - sqrt(5.0), 1e-6);
  ck_assert(!answer_ok(&a, 10));
  ck_assert_ptr_nonnull(strstr(answer_string(&a, 10, "error"), "dir"));
  ck_assert(!answer_ok(&a, 11));
  ck_assert_ptr_nonnull(strstr(answer_string(&a, 11, "error"), "pieces"));
  // The sealed room's free middle cannot be reached from outside: the nearest point that can is
  // outside its 4-thick walls, 11 from the middle; a partial path goes there.
  for (size_t i = 12; i < 15; i++) {
    ck_assert_msg(answer_ok(&a, i), "answer %zu refused: %s", i, r.out);
  }
  ck_assert_double_eq_tol(answer_number(&a, 13, "distance"), 11, 1e-6);
  ck_assert_str_eq(answer_string(&a, 14, "status"), "partial");
  free_answers(&a);
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

// A path in slices answers as the path in one go, and says how many resumes it took.
START_TEST(replay_sliced_path_answers_the_same) {
  char dir[256], script[512];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "script.jsonl",
             "{\"op\":\"add\",\"name\":\"a\",\"polygon\":[[20,0],[24,0],[24,40],[20,40]]}\n"
             "{\"op\":\"add\",\"name\":\"b\",\"polygon\":[[40,10],[44,10],[44,50],[40,50]]}\n"
             "{\"op\":\"add\",\"name\":\"c\",\"circle\":{\"center\":[32,20],\"radius\":3}}\n"
             "{\"op\":\"path\",\"from\":[10,20],\"to\":[60,30],\"radius\":1}\n"
             "{\"op\":\"path\",\"from\":[10,20],\"to\":[60,30],\"radius\":1,\"slice\":1}\n"
             "{\"op\":\"path\",\"from\":[10,20],\"to\":[60,30],\"radius\":1,\"slice\":1000}\n"
             "{\"op\":\"path\",\"from\":[10,20],\"to\":[60,30],\"radius\":1,\"slice\":0}\n"
             "{\"op\":\"path\",\"from\":[10,20],\"to\":[60,30],\"radius\":1,\"slice\":2.5}\n");
  join(script, sizeof script, dir, "script.jsonl");
  const char *args[] = {"replay", script, NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_msg(r.code == 0, "exit %d: %s", r.code, r.err); // refused lines are answers
  answers a = parse_answers(r.out);
  ck_assert_uint_eq(a.count, 8);
  for (size_t i = 0; i < 6; i++) {
    ck_assert_msg(answer_ok(&a, i), "answer %zu refused: %s", i, r.out);
  }
  ck_assert_str_eq(answer_string(&a, 3, "status"), "ok");
  double whole = answer_number(&a, 3, "length");
  ck_assert(whole > hypot(50, 10));
  ck_assert_double_eq(answer_number(&a, 4, "length"), whole);
  ck_assert_double_eq(answer_number(&a, 5, "length"), whole);
  ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(a.lines[3], "slices"));
  // One expansion a resume takes several resumes round two walls; a large slice takes one.
  ck_assert(answer_number(&a, 4, "slices") > 2);
  ck_assert_double_eq(answer_number(&a, 5, "slices"), 1);
  for (size_t i = 6; i < 8; i++) {
    ck_assert(!answer_ok(&a, i));
    ck_assert_ptr_nonnull(strstr(answer_string(&a, i, "error"), "slice"));
  }
  free_answers(&a);
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

static Suite *replay_suite(void) {
  Suite *suite = suite_create("cli_replay");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, replay_follows_the_living_map);
  tcase_add_test(tc, replay_malformed_lines_exit_2_and_go_on);
  tcase_add_test(tc, replay_probes_and_partial_paths);
  tcase_add_test(tc, replay_sliced_path_answers_the_same);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  SRunner *runner = srunner_create(replay_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
