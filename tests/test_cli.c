// SPDX-License-Identifier: MIT
// End-to-end tests of the `arcnav` executable: they run the built binary on files written to a
// temporary directory and check exit codes, standard output and standard error against the
// contract in docs/CLI.md. Expected lengths are derived by hand, never taken from the tool.

#define _XOPEN_SOURCE 700

#include <cJSON.h>
#include <math.h>

#include "arcnav/arcnav.h"
#include "arcnav_test.h"
#include "cli_runner.h"

#define PI 3.14159265358979323846

// ---------------------------------------------------------------------------------------------
// Independent path checks on the JSON answer.

static arcnav_vec2 json_point(const cJSON *item) {
  ck_assert(cJSON_IsArray(item) && cJSON_GetArraySize(item) == 2);
  const cJSON *x = cJSON_GetArrayItem(item, 0), *y = cJSON_GetArrayItem(item, 1);
  ck_assert(cJSON_IsNumber(x) && cJSON_IsNumber(y));
  return (arcnav_vec2){x->valuedouble, y->valuedouble};
}

static double json_double(const cJSON *object, const char *key) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
  ck_assert_msg(cJSON_IsNumber(item), "missing number \"%s\"", key);
  return item->valuedouble;
}

static const char *json_string(const cJSON *object, const char *key) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
  ck_assert_msg(cJSON_IsString(item), "missing string \"%s\"", key);
  return item->valuestring;
}

// Sum of the piece lengths computed from the piece geometry alone; also checks that pieces
// chain from `start` to `goal` and that arc ends lie on their circle.
static double pieces_length(const cJSON *answer, arcnav_vec2 start, arcnav_vec2 goal) {
  const cJSON *pieces = cJSON_GetObjectItemCaseSensitive(answer, "pieces");
  ck_assert(cJSON_IsArray(pieces));
  double total = 0;
  arcnav_vec2 at = start;
  const cJSON *piece = NULL;
  cJSON_ArrayForEach(piece, pieces) {
    const char *type = json_string(piece, "type");
    arcnav_vec2 from = json_point(cJSON_GetObjectItemCaseSensitive(piece, "from"));
    arcnav_vec2 to = json_point(cJSON_GetObjectItemCaseSensitive(piece, "to"));
    ck_assert_double_eq_tol(from.x, at.x, 1e-9);
    ck_assert_double_eq_tol(from.y, at.y, 1e-9);
    if (strcmp(type, "line") == 0) {
      total += hypot(to.x - from.x, to.y - from.y);
    } else {
      ck_assert_str_eq(type, "arc");
      arcnav_vec2 c = json_point(cJSON_GetObjectItemCaseSensitive(piece, "center"));
      double r = json_double(piece, "radius");
      const cJSON *ccw = cJSON_GetObjectItemCaseSensitive(piece, "ccw");
      ck_assert(cJSON_IsBool(ccw));
      ck_assert_double_eq_tol(hypot(from.x - c.x, from.y - c.y), r, 1e-9);
      ck_assert_double_eq_tol(hypot(to.x - c.x, to.y - c.y), r, 1e-9);
      double a0 = atan2(from.y - c.y, from.x - c.x), a1 = atan2(to.y - c.y, to.x - c.x);
      double sweep = cJSON_IsTrue(ccw) ? a1 - a0 : a0 - a1;
      while (sweep < 0) {
        sweep += 2 * PI;
      }
      total += r * sweep;
    }
    at = to;
  }
  ck_assert_double_eq_tol(at.x, goal.x, 1e-9);
  ck_assert_double_eq_tol(at.y, goal.y, 1e-9);
  return total;
}

// A 2x2 square obstacle centred on the origin, bounds far away, a circle off to the side.
static const char square_map[] =
    "{\"type\":\"FeatureCollection\",\"features\":[\n"
    " {\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\n"
    "  \"coordinates\":[[[-1,-1],[1,-1],[1,1],[-1,1],[-1,-1]]]}},\n"
    " {\"type\":\"Feature\",\"properties\":{\"radius\":1},\"geometry\":{\"type\":\"Point\",\n"
    "  \"coordinates\":[0,20]}},\n"
    " {\"type\":\"Feature\",\"properties\":{\"role\":\"bounds\"},\"geometry\":{\"type\":"
    "\"Polygon\",\n"
    "  \"coordinates\":[[[-30,-30],[30,-30],[30,30],[-30,30],[-30,-30]]]}}\n"
    "]}\n";

// ---------------------------------------------------------------------------------------------

START_TEST(neerc_sample_matches_answer_file) {
  char dir[512];
  make_temp_dir(dir, sizeof dir);
  const char *args[] = {"neerc", ARCNAV_TEST_DATA_DIR "/neerc_sample.in", NULL};
  run_result r = run_cli(dir, NULL, args);
  char *expected = slurp(ARCNAV_TEST_DATA_DIR "/neerc_sample.ans");
  ck_assert_int_eq(r.code, 0);
  ck_assert_str_eq(r.out, expected);
  ck_assert_str_eq(r.err, "");
  free(expected);
  free_result(&r);

  // The same input from standard input.
  const char *stdin_args[] = {"neerc", NULL};
  r = run_cli(dir, ARCNAV_TEST_DATA_DIR "/neerc_sample.in", stdin_args);
  expected = slurp(ARCNAV_TEST_DATA_DIR "/neerc_sample.ans");
  ck_assert_int_eq(r.code, 0);
  ck_assert_str_eq(r.out, expected);
  free(expected);
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

START_TEST(neerc_hand_checked_cases) {
  char dir[512], file[1024];
  make_temp_dir(dir, sizeof dir);
  // Case 1, no rectangles: the straight distance 5. Case 2, a 2x2 box between A and B with
  // r = 1: the same geometry as square_map, derived in path_geojson_length_is_sum_of_pieces.
  write_text(dir, "hand.in", "1 0\n0 0 3 4\n1 1\n-3 0 3 0\n-1 -1 1 1\n");
  join(file, sizeof file, dir, "hand.in");
  const char *args[] = {"neerc", file, NULL};
  run_result r = run_cli(dir, NULL, args);
  char expected[128];
  snprintf(expected, sizeof expected, "%.6f\n%.6f\n", 5.0, 6 + 2 * atan2(4, 3));
  ck_assert_int_eq(r.code, 0);
  ck_assert_str_eq(r.out, expected);
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

START_TEST(neerc_malformed_input) {
  static const struct {
    const char *text;
    const char *where;
  } cases[] = {
      {"1 1\n0 0 5 5\n1 1 2 x\n", ":3:"},
      {"1 2\n0 0 5 5\n1 1 2 2\n", ":3:"},          // second rectangle missing
      {"1 1\n0 0 5 5\n1 1 1 3\n", ":3:"},          // zero-width rectangle
      {"-1 0\n0 0 1 1\n", ":1:"},                  // negative radius
      {"1 -2\n0 0 1 1\n", ":1:"},                  // negative count
      {"1 0\n0 0 1 1\n\n2 0\n0 nan 1 1\n", ":5:"}, // second case
  };
  char dir[512], file[1024];
  make_temp_dir(dir, sizeof dir);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    write_text(dir, "bad.in", cases[i].text);
    join(file, sizeof file, dir, "bad.in");
    const char *args[] = {"neerc", file, NULL};
    run_result r = run_cli(dir, NULL, args);
    ck_assert_msg(r.code == 2, "case %zu: exit %d", i, r.code);
    ck_assert_str_eq(r.out, "");
    ck_assert_msg(strstr(r.err, "bad.in") != NULL && strstr(r.err, cases[i].where) != NULL,
                  "case %zu: message '%s'", i, r.err);
    ck_assert_uint_eq(count_lines(r.err), 1);
    free_result(&r);
  }
  remove_temp_dir(dir);
}
END_TEST

START_TEST(help_and_version) {
  char dir[512];
  make_temp_dir(dir, sizeof dir);
  static const char *const commands[] = {"neerc", "path", "batch", "render", "demo"};
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    const char *args[] = {commands[i], "--help", NULL};
    run_result r = run_cli(dir, NULL, args);
    ck_assert_int_eq(r.code, 0);
    ck_assert_ptr_nonnull(strstr(r.out, commands[i]));
    free_result(&r);
  }
  const char *help[] = {"--help", NULL};
  run_result r = run_cli(dir, NULL, help);
  ck_assert_int_eq(r.code, 0);
  ck_assert_ptr_nonnull(strstr(r.out, "usage"));
  free_result(&r);

  const char *version[] = {"--version", NULL};
  r = run_cli(dir, NULL, version);
  ck_assert_int_eq(r.code, 0);
  ck_assert_ptr_nonnull(strstr(r.out, ARCNAV_VERSION_STRING));
  free_result(&r);

  const char *none[] = {NULL};
  r = run_cli(dir, NULL, none);
  ck_assert_int_eq(r.code, 2);
  ck_assert_str_eq(r.out, "");
  free_result(&r);

  const char *unknown[] = {"fly", NULL};
  r = run_cli(dir, NULL, unknown);
  ck_assert_int_eq(r.code, 2);
  ck_assert_str_eq(r.out, "");
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

START_TEST(path_neerc_map_defaults) {
  char dir[512];
  make_temp_dir(dir, sizeof dir);
  const char *args[] = {"path", "--map", ARCNAV_TEST_DATA_DIR "/neerc_sample.in", NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_int_eq(r.code, 0);
  cJSON *answer = cJSON_Parse(r.out);
  ck_assert_ptr_nonnull(answer);
  ck_assert_str_eq(json_string(answer, "status"), "ok");
  ck_assert_double_eq(json_double(answer, "radius"), 1);
  // Down 5 along x = 2, a quarter turn of radius 1 around (3, 2), then 4 along y = 1.
  double length = json_double(answer, "length");
  ck_assert_double_eq_tol(length, 9 + PI / 2, 1e-9);
  ck_assert_double_eq_tol(pieces_length(answer, (arcnav_vec2){2, 7}, (arcnav_vec2){7, 1}), length,
                          1e-9);
  // The length is printed with 17 significant digits so that it reads back exactly.
  ck_assert_ptr_nonnull(strstr(r.out, "\"length\":10.570796326794897"));
  cJSON_Delete(answer);
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

START_TEST(path_geojson_length_is_sum_of_pieces) {
  char dir[512], map[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "square.geojson", square_map);
  join(map, sizeof map, dir, "square.geojson");
  const char *args[] = {"path",   "--map", map,    "--radius", "1",
                        "--from", "-3,0",  "--to", "3,0",      NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_int_eq(r.code, 0);
  ck_assert_str_eq(r.err, "");
  cJSON *answer = cJSON_Parse(r.out);
  ck_assert_ptr_nonnull(answer);
  ck_assert_str_eq(json_string(answer, "status"), "ok");
  double length = json_double(answer, "length");
  // Tangent from (-3, 0) to the corner circle at (-1, 1): length 2, touching where the heading
  // is atan2(4, 3); the arc turns that much to run along y = 2 for 2, then the mirror image.
  ck_assert_double_eq_tol(length, 6 + 2 * atan2(4, 3), 1e-9);
  ck_assert_double_eq_tol(pieces_length(answer, (arcnav_vec2){-3, 0}, (arcnav_vec2){3, 0}), length,
                          1e-9);
  ck_assert_int_ge(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(answer, "pieces")), 3);
  cJSON_Delete(answer);
  free_result(&r);

  const char *text_args[] = {"path", "--map", map,   "--radius", "1",    "--from",
                             "-3,0", "--to",  "3,0", "--format", "text", NULL};
  r = run_cli(dir, NULL, text_args);
  ck_assert_int_eq(r.code, 0);
  ck_assert_ptr_nonnull(strstr(r.out, "length"));
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

START_TEST(path_without_answer_exits_1) {
  char dir[512], map[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "square.geojson", square_map);
  // A ring with a hole: the hole is free but closed off from the outside.
  write_text(dir, "ring.geojson",
             "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":"
             "null,\"geometry\":{\"type\":\"Polygon\",\"coordinates\":["
             "[[-10,-10],[10,-10],[10,10],[-10,10],[-10,-10]],"
             "[[-5,-5],[-5,5],[5,5],[5,-5],[-5,-5]]]}}]}");
  static const struct {
    const char *map, *from, *to, *status;
  } cases[] = {
      {"square.geojson", "-3,0", "0,0", "goal_blocked"},
      {"square.geojson", "0,0.5", "3,0", "start_blocked"},
      {"ring.geojson", "0,0", "20,0", "no_path"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    join(map, sizeof map, dir, cases[i].map);
    const char *args[] = {"path",   "--map",       map,    "--radius",  "1",
                          "--from", cases[i].from, "--to", cases[i].to, NULL};
    run_result r = run_cli(dir, NULL, args);
    ck_assert_msg(r.code == 1, "case %zu: exit %d", i, r.code);
    cJSON *answer = cJSON_Parse(r.out);
    ck_assert_ptr_nonnull(answer);
    ck_assert_str_eq(json_string(answer, "status"), cases[i].status);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(answer, "pieces")), 0);
    cJSON_Delete(answer);
    free_result(&r);
  }
  remove_temp_dir(dir);
}
END_TEST

START_TEST(path_usage_errors_exit_2) {
  char dir[512], map[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "square.geojson", square_map);
  join(map, sizeof map, dir, "square.geojson");
  const char *const cases[][12] = {
      {"path", "--radius", "1", "--from", "0,0", "--to", "1,1", NULL},
      {"path", "--map", map, "--radius", "1", "--from", "3;0", "--to", "5,0", NULL},
      {"path", "--map", map, "--radius", "-1", "--from", "3,0", "--to", "5,0", NULL},
      {"path", "--map", map, "--radius", "nan", "--from", "3,0", "--to", "5,0", NULL},
      {"path", "--map", map, "--radius", "1", "--from", "3,0", NULL},
      {"path", "--map", map, "--radius", "1", "--from", "3,0", "--to", "5,0", "--bogus", NULL},
      {"path", "--map", map, "--radius", "1", "--from", "3,0", "--to", "5,0", "--format", "xml",
       NULL},
      {"path", "--map", map, "--radius", NULL},
      {"path", "--map", map, "--radius", "1", "--from", "3,0", "--to", "5,0", "--planner", "magic",
       NULL},
      {"render", "--map", map, "--radius", "1", "--out", "x.svg", "--planner", "Interval", NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    run_result r = run_cli(dir, NULL, cases[i]);
    ck_assert_msg(r.code == 2, "case %zu: exit %d", i, r.code);
    ck_assert_str_eq(r.out, "");
    ck_assert_uint_eq(count_lines(r.err), 1);
    free_result(&r);
  }
  remove_temp_dir(dir);
}
END_TEST

// One valid feature 0 followed by a faulty feature 1 (or a faulty document).
#define GOOD_FEATURE                                                                               \
  "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"    \
  "[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}}"
#define COLLECTION(second)                                                                         \
  "{\"type\":\"FeatureCollection\",\"features\":[" GOOD_FEATURE "," second "]}"
#define POLYGON(coords)                                                                            \
  "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\","                    \
  "\"coordinates\":" coords "}}"

static const struct {
  const char *name;
  const char *text; ///< NULL: the file does not exist
  const char *where;
} invalid_maps[] = {
    {"missing.geojson", NULL, "missing.geojson"},
    {"truncated.geojson", "{\"type\":\"FeatureCollection\",\"features\":[", "truncated.geojson"},
    {"garbage.json", "\x01\x02 not json at all", "garbage.json"},
    {"feature.geojson", GOOD_FEATURE, "FeatureCollection"},
    {"features.geojson", "{\"type\":\"FeatureCollection\",\"features\":3}", "features"},
    {"unknown_type.geojson",
     COLLECTION("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Circle\","
                "\"coordinates\":[0,0]}}"),
     "feature 1"},
    {"string_number.geojson", COLLECTION(POLYGON("[[[\"5\",0],[6,0],[6,1],[5,0]]]")),
     "feature 1, ring 0, vertex 0"},
    {"infinite.geojson", COLLECTION(POLYGON("[[[5,0],[6,0],[6,1e999],[5,0]]]")),
     "feature 1, ring 0, vertex 2"},
    {"few_points.geojson", COLLECTION(POLYGON("[[[5,0],[6,0],[6,0],[5,0]]]")), "feature 1, ring 0"},
    {"bowtie.geojson", COLLECTION(POLYGON("[[[5,0],[7,2],[7,0],[5,2],[5,0]]]")), "feature 1"},
    {"bad_hole.geojson", COLLECTION(POLYGON("[[[5,0],[9,0],[9,4],[5,4],[5,0]],[[6,1],[7,1]]]")),
     "feature 1, ring 1"},
    {"not_rings.geojson", COLLECTION(POLYGON("5")), "feature 1"},
    {"negative_radius.geojson",
     COLLECTION("{\"type\":\"Feature\",\"properties\":{\"radius\":-2},\"geometry\":{\"type\":"
                "\"Point\",\"coordinates\":[9,9]}}"),
     "feature 1"},
    {"string_radius.geojson",
     COLLECTION("{\"type\":\"Feature\",\"properties\":{\"radius\":\"2\"},\"geometry\":{\"type\":"
                "\"Point\",\"coordinates\":[9,9]}}"),
     "feature 1"},
    {"multi.geojson",
     COLLECTION("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"MultiPolygon\","
                "\"coordinates\":[[[[5,0],[6,0],[6,1],[5,0]]],[[[8,0],[9,0],[9,\"1\"],[8,0]]]]}}"),
     "feature 1 (polygon 1"},
    {"bounds_multi.geojson",
     COLLECTION("{\"type\":\"Feature\",\"properties\":{\"role\":\"bounds\"},\"geometry\":{\"type\":"
                "\"MultiPolygon\",\"coordinates\":[[[[5,0],[6,0],[6,1],[5,0]]]]}}"),
     "feature 1"},
    {"not_feature.geojson", COLLECTION("[1,2,3]"), "feature 1"},
};

START_TEST(invalid_geojson_exits_2_naming_the_feature) {
  char dir[512], map[1024];
  make_temp_dir(dir, sizeof dir);
  size_t i = (size_t)_i;
  if (invalid_maps[i].text != NULL) {
    write_text(dir, invalid_maps[i].name, invalid_maps[i].text);
  }
  join(map, sizeof map, dir, invalid_maps[i].name);
  const char *args[] = {"path",   "--map", map,    "--radius", "0.5",
                        "--from", "-5,-5", "--to", "-4,-4",    NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_msg(r.code == 2, "%s: exit %d", invalid_maps[i].name, r.code);
  ck_assert_str_eq(r.out, "");
  ck_assert_msg(strstr(r.err, invalid_maps[i].name) != NULL, "%s: message '%s'",
                invalid_maps[i].name, r.err);
  ck_assert_msg(strstr(r.err, invalid_maps[i].where) != NULL, "%s: message '%s' lacks '%s'",
                invalid_maps[i].name, r.err, invalid_maps[i].where);
  ck_assert_uint_eq(count_lines(r.err), 1);
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

START_TEST(deeply_nested_json_does_not_crash) {
  char dir[512], map[1024];
  make_temp_dir(dir, sizeof dir);
  size_t depth = 100000;
  char *text = malloc(2 * depth + 1);
  ck_assert_ptr_nonnull(text);
  memset(text, '[', depth);
  memset(text + depth, ']', depth);
  text[2 * depth] = '\0';
  write_text(dir, "deep.json", text);
  free(text);
  join(map, sizeof map, dir, "deep.json");
  const char *args[] = {"render", "--map", map, "--out", "x.svg", NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_int_eq(r.code, 2);
  ck_assert_str_eq(r.out, "");
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

START_TEST(ignored_features_warn) {
  char dir[512], map[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "lines.geojson",
             COLLECTION("{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":"
                        "\"LineString\",\"coordinates\":[[5,5],[6,6]]}}"));
  join(map, sizeof map, dir, "lines.geojson");
  const char *args[] = {"path",   "--map", map,    "--radius", "0.25",
                        "--from", "-2,-2", "--to", "-2,3",     NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_int_eq(r.code, 0);
  ck_assert_ptr_nonnull(strstr(r.err, "feature 1"));
  cJSON *answer = cJSON_Parse(r.out);
  ck_assert_ptr_nonnull(answer);
  // Nothing lies between the two points: the path is the straight segment.
  ck_assert_double_eq_tol(json_double(answer, "length"), 5, 1e-9);
  cJSON_Delete(answer);
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

START_TEST(batch_prints_one_line_per_query_and_a_summary) {
  char dir[512], map[1024], queries[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "square.geojson", square_map);
  write_text(dir, "queries.txt",
             "# sx sy gx gy\n"
             "-3 0 3 0\n"
             "\n"
             "   -5 -5 5 5\r\n"
             "0 0 5 5\n"
             "  # trailing comment\n");
  join(map, sizeof map, dir, "square.geojson");
  join(queries, sizeof queries, dir, "queries.txt");
  const char *args[] = {"batch", "--map", map, "--radius", "1", "--queries", queries, NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_int_eq(r.code, 0);
  ck_assert_uint_eq(count_lines(r.out), 4);
  const arcnav_vec2 ends[3][2] = {{{-3, 0}, {3, 0}}, {{-5, -5}, {5, 5}}, {{0, 0}, {5, 5}}};
  char *line = r.out;
  for (int i = 0; i < 4; i++) {
    char *newline = strchr(line, '\n');
    ck_assert_ptr_nonnull(newline);
    *newline = '\0';
    cJSON *object = cJSON_Parse(line);
    ck_assert_msg(object != NULL, "line %d is not JSON: %s", i, line);
    if (i < 3) {
      ck_assert_double_eq(json_double(object, "query"), i);
      ck_assert(json_double(object, "micros") >= 0);
      const char *status = json_string(object, "status");
      ck_assert_str_eq(status, i < 2 ? "ok" : "start_blocked");
      if (i < 2) {
        ck_assert_double_eq_tol(pieces_length(object, ends[i][0], ends[i][1]),
                                json_double(object, "length"), 1e-9);
      }
    } else {
      const cJSON *summary = cJSON_GetObjectItemCaseSensitive(object, "summary");
      ck_assert(cJSON_IsObject(summary));
      ck_assert(json_double(summary, "build_ms") >= 0);
      ck_assert_double_eq(json_double(summary, "queries"), 3);
      ck_assert_double_eq(json_double(summary, "found"), 2);
      ck_assert(json_double(summary, "query_median_us") >= 0);
      ck_assert(json_double(summary, "query_p90_us") >= json_double(summary, "query_median_us"));
    }
    cJSON_Delete(object);
    line = newline + 1;
  }
  free_result(&r);

  // A malformed query line: exit 2, nothing on standard output, FILE:LINE on standard error.
  write_text(dir, "queries.txt", "-3 0 3 0\n\n1 2 3\n");
  r = run_cli(dir, NULL, args);
  ck_assert_int_eq(r.code, 2);
  ck_assert_str_eq(r.out, "");
  ck_assert_ptr_nonnull(strstr(r.err, "queries.txt:3:"));
  free_result(&r);

  const char *bad_planner[] = {"batch",     "--map", map,         "--radius", "1",
                               "--queries", queries, "--planner", "magic",    NULL};
  r = run_cli(dir, NULL, bad_planner);
  ck_assert_int_eq(r.code, 2);
  ck_assert_str_eq(r.out, "");
  ck_assert_uint_eq(count_lines(r.err), 1);
  ck_assert_msg(strstr(r.err, "'magic'") != NULL && strstr(r.err, "interval") != NULL,
                "message '%s'", r.err);
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

START_TEST(batch_funnel_planner_answers_or_refuses_clearly) {
  char dir[512], map[1024], queries[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "square.geojson", square_map);
  write_text(dir, "queries.txt", "-3 0 3 0\n");
  join(map, sizeof map, dir, "square.geojson");
  join(queries, sizeof queries, dir, "queries.txt");
  static const char *const planners[] = {"funnel", "plain-funnel", "tangent", "auto", "interval"};
  for (size_t i = 0; i < sizeof planners / sizeof planners[0]; i++) {
    const char *args[] = {"batch",     "--map", map,         "--radius",  "0",
                          "--queries", queries, "--planner", planners[i], NULL};
    run_result r = run_cli(dir, NULL, args);
    // At R = 0 every engine answers: from (-3, 0) to the corner (-1, 1), along the top edge to
    // (1, 1), down to (3, 0): 2 + 2 * sqrt(5).
    ck_assert_msg(r.code == 0, "%s: exit %d: %s", planners[i], r.code, r.err);
    ck_assert_uint_eq(count_lines(r.out), 2);
    char *newline = strchr(r.out, '\n');
    *newline = '\0';
    cJSON *object = cJSON_Parse(r.out);
    ck_assert_ptr_nonnull(object);
    ck_assert_double_eq_tol(json_double(object, "length"), 2 + 2 * sqrt(5.0), 1e-9);
    cJSON_Delete(object);
    free_result(&r);

    args[4] = "1";
    r = run_cli(dir, NULL, args);
    ck_assert_msg(r.code == 0 ||
                      (r.code == 2 && r.out[0] == '\0' && strstr(r.err, planners[i]) != NULL),
                  "%s at R = 1: exit %d: %s", planners[i], r.code, r.err);
    free_result(&r);
  }
  remove_temp_dir(dir);
}
END_TEST

START_TEST(render_writes_svg_with_arcs) {
  char dir[512], map[1024], svg[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "square.geojson", square_map);
  join(map, sizeof map, dir, "square.geojson");
  join(svg, sizeof svg, dir, "out.svg");
  const char *args[] = {"render", "--map", map,   "--radius", "1", "--from",
                        "-3,0",   "--to",  "3,0", "--out",    svg, NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_int_eq(r.code, 0);
  char *text = slurp(svg);
  ck_assert_ptr_nonnull(strstr(text, "<svg"));
  ck_assert_ptr_nonnull(strstr(text, "</svg>"));
  ck_assert_ptr_nonnull(strstr(text, " A1 1 0 "));
  ck_assert_ptr_nonnull(strstr(text, "fill-rule=\"evenodd\""));
  free(text);
  free_result(&r);

  // Map only, no radius: still a picture, exit 0.
  const char *plain[] = {"render", "--map", map, "--out", svg, NULL};
  r = run_cli(dir, NULL, plain);
  ck_assert_int_eq(r.code, 0);
  text = slurp(svg);
  ck_assert_ptr_nonnull(strstr(text, "<circle"));
  free(text);
  free_result(&r);

  // path --svg writes the same kind of picture next to the JSON answer.
  const char *path_svg[] = {"path", "--map", map,   "--radius", "1", "--from",
                            "-3,0", "--to",  "3,0", "--svg",    svg, NULL};
  remove(svg);
  r = run_cli(dir, NULL, path_svg);
  ck_assert_int_eq(r.code, 0);
  text = slurp(svg);
  ck_assert_ptr_nonnull(strstr(text, " A1 1 0 "));
  free(text);
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

START_TEST(town_gate_admits_only_the_small_unit) {
  char dir[512];
  make_temp_dir(dir, sizeof dir);
  // The yard's only opening is the gate at x in [120, 124], y in [72, 79]: 7 wide.
  const char *small[] = {"path",     "--map", ARCNAV_EXAMPLES_DIR "/town.geojson",
                         "--radius", "2",     "--from",
                         "10,70",    "--to",  "135,95",
                         NULL};
  run_result r = run_cli(dir, NULL, small);
  ck_assert_int_eq(r.code, 0);
  cJSON *answer = cJSON_Parse(r.out);
  ck_assert_ptr_nonnull(answer);
  pieces_length(answer, (arcnav_vec2){10, 70}, (arcnav_vec2){135, 95});
  // Some piece crosses the middle of the wall, x = 122, inside the gate with clearance 2.
  bool through_gate = false;
  const cJSON *piece = NULL;
  cJSON_ArrayForEach(piece, cJSON_GetObjectItemCaseSensitive(answer, "pieces")) {
    arcnav_vec2 a = json_point(cJSON_GetObjectItemCaseSensitive(piece, "from"));
    arcnav_vec2 b = json_point(cJSON_GetObjectItemCaseSensitive(piece, "to"));
    if (strcmp(json_string(piece, "type"), "line") == 0 && (a.x - 122) * (b.x - 122) <= 0 &&
        a.x != b.x) {
      double y = a.y + (b.y - a.y) * (122 - a.x) / (b.x - a.x);
      through_gate = through_gate || (y >= 74 - 1e-6 && y <= 77 + 1e-6);
    }
  }
  ck_assert(through_gate);
  cJSON_Delete(answer);
  free_result(&r);

  const char *large[] = {"path",     "--map", ARCNAV_EXAMPLES_DIR "/town.geojson",
                         "--radius", "5",     "--from",
                         "10,70",    "--to",  "135,95",
                         NULL};
  r = run_cli(dir, NULL, large);
  ck_assert_int_eq(r.code, 1);
  ck_assert_ptr_nonnull(strstr(r.out, "\"no_path\""));
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

START_TEST(demo_runs_without_arguments) {
  char dir[512], file[1024];
  make_temp_dir(dir, sizeof dir);
  join(file, sizeof file, dir, "pictures");
  const char *args[] = {"demo", "--out", file, NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_msg(r.code == 0, "exit %d: %s", r.code, r.err);
  ck_assert_ptr_nonnull(strstr(r.out, "town"));
  ck_assert_ptr_nonnull(strstr(r.out, "no_path"));
  free_result(&r);
  static const char *const pictures[] = {"town-r2.svg", "town-r5.svg", "maze-r1.svg",
                                         "plaza-r1.5.svg"};
  for (size_t i = 0; i < sizeof pictures / sizeof pictures[0]; i++) {
    char picture[1100];
    snprintf(picture, sizeof picture, "%s/%s", file, pictures[i]);
    char *text = slurp(picture);
    ck_assert_ptr_nonnull(strstr(text, "</svg>"));
    free(text);
  }
  remove_temp_dir(dir);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// batch: a fifth number per query line is that query's radius.

// A wall along x in [-1, 1] from the bounds down to y = 2 and up from y = -2 to the bounds: the
// only way from x < -1 to x > 1 is the gap y in [-2, 2], 4 wide, open up to R = 2.
static const char gap_map[] =
    "{\"type\":\"FeatureCollection\",\"features\":[\n"
    " {\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\n"
    "  \"coordinates\":[[[-1,2],[1,2],[1,30],[-1,30],[-1,2]]]}},\n"
    " {\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\n"
    "  \"coordinates\":[[[-1,-30],[1,-30],[1,-2],[-1,-2],[-1,-30]]]}},\n"
    " {\"type\":\"Feature\",\"properties\":{\"role\":\"bounds\"},\"geometry\":{\"type\":"
    "\"Polygon\",\n"
    "  \"coordinates\":[[[-30,-30],[30,-30],[30,30],[-30,30],[-30,-30]]]}}\n"
    "]}\n";

// Split standard output into its JSON lines (caller deletes them).
static size_t parse_lines(char *out, cJSON **objects, size_t max) {
  size_t count = 0;
  char *line = out;
  while (*line != '\0') {
    char *newline = strchr(line, '\n');
    ck_assert_ptr_nonnull(newline);
    *newline = '\0';
    ck_assert_uint_lt(count, max);
    objects[count] = cJSON_Parse(line);
    ck_assert_msg(objects[count] != NULL, "not JSON: %s", line);
    count++;
    line = newline + 1;
  }
  return count;
}

START_TEST(batch_fifth_number_is_the_query_radius) {
  char dir[512], map[1024], queries[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "gap.geojson", gap_map);
  join(map, sizeof map, dir, "gap.geojson");
  join(queries, sizeof queries, dir, "queries.txt");
  static const struct {
    const char *line;
    const char *radius; ///< the radius the line is answered with (--radius 3 without a fifth)
    const char *from, *to;
    const char *status;
  } lines[] = {
      {"-10 0 10 0 1", "1", "-10,0", "10,0", "ok"},
      {"-10 0 10 0 3", "3", "-10,0", "10,0", "no_path"},
      {"-10 0 10 0", "3", "-10,0", "10,0", "no_path"},
      {"-10 6 10 -6 1.5", "1.5", "-10,6", "10,-6", "ok"},
      {"-10 0 10 0 2", "2", "-10,0", "10,0", "ok"}, // exactly 2R: open
      {"-10 0 10 0 1", "1", "-10,0", "10,0", "ok"},
      {"-10 6 10 -6 0", "0", "-10,6", "10,-6", "ok"},
  };
  enum { LINES = sizeof lines / sizeof lines[0] };
  char text[1024] = "# sx sy gx gy [r]\n";
  for (size_t i = 0; i < LINES; i++) {
    strcat(text, lines[i].line);
    strcat(text, "\n");
  }
  write_text(dir, "queries.txt", text);
  const char *args[] = {"batch", "--map", map, "--radius", "3", "--queries", queries, NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_msg(r.code == 0, "exit %d: %s", r.code, r.err);
  cJSON *objects[LINES + 1];
  ck_assert_uint_eq(parse_lines(r.out, objects, LINES + 1), LINES + 1);
  for (size_t i = 0; i < LINES; i++) {
    ck_assert_str_eq(json_string(objects[i], "status"), lines[i].status);
    ck_assert_double_eq(json_double(objects[i], "radius"), atof(lines[i].radius));
    // The same question asked alone.
    const char *alone[] = {"path",   "--map",       map,    "--radius",  lines[i].radius,
                           "--from", lines[i].from, "--to", lines[i].to, NULL};
    run_result single = run_cli(dir, NULL, alone);
    cJSON *answer = cJSON_Parse(single.out);
    ck_assert_msg(answer != NULL, "line %zu: %s", i, single.err);
    ck_assert_str_eq(json_string(answer, "status"), json_string(objects[i], "status"));
    if (strcmp(lines[i].status, "ok") == 0) {
      ck_assert_double_eq_tol(json_double(objects[i], "length"), json_double(answer, "length"),
                              1e-9);
      arcnav_vec2 from, to;
      sscanf(lines[i].from, "%lf,%lf", &from.x, &from.y);
      sscanf(lines[i].to, "%lf,%lf", &to.x, &to.y);
      ck_assert_double_eq_tol(pieces_length(objects[i], from, to),
                              json_double(objects[i], "length"), 1e-9);
    }
    cJSON_Delete(answer);
    free_result(&single);
  }
  // Through the gap on y = 0 the path is straight at R = 1 and 2.
  ck_assert_double_eq_tol(json_double(objects[0], "length"), 20, 1e-9);
  ck_assert_double_eq_tol(json_double(objects[4], "length"), 20, 1e-9);
  // The default planner (auto) answers every radius from one build.
  const cJSON *summary = cJSON_GetObjectItemCaseSensitive(objects[LINES], "summary");
  ck_assert(cJSON_IsObject(summary));
  ck_assert_double_eq(json_double(summary, "planners_built"), 1);
  ck_assert_double_eq(json_double(summary, "queries"), LINES);
  ck_assert_double_eq(json_double(summary, "found"), 5);
  for (size_t i = 0; i <= LINES; i++) {
    cJSON_Delete(objects[i]);
  }
  free_result(&r);

  // Without --radius every line needs its fifth number; the message names the line without one.
  const char *no_radius[] = {"batch", "--map", map, "--queries", queries, NULL};
  r = run_cli(dir, NULL, no_radius);
  ck_assert_int_eq(r.code, 2);
  ck_assert_str_eq(r.out, "");
  ck_assert_msg(strstr(r.err, "queries.txt:4") != NULL, "message '%s'", r.err);
  free_result(&r);
  write_text(dir, "queries.txt", "-10 0 10 0 1\n-10 0 10 0 3\n");
  r = run_cli(dir, NULL, no_radius);
  ck_assert_msg(r.code == 0, "exit %d: %s", r.code, r.err);
  ck_assert_uint_eq(count_lines(r.out), 3);
  ck_assert_ptr_nonnull(strstr(r.out, "\"no_path\""));
  free_result(&r);

  // A negative fifth number, or a sixth: exit 2 naming the line.
  static const char *const bad[] = {"-10 0 10 0 1\n-10 0 10 0 -1\n", "-10 0 10 0 1\n1 2 3 4 5 6\n"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    write_text(dir, "queries.txt", bad[i]);
    r = run_cli(dir, NULL, args);
    ck_assert_int_eq(r.code, 2);
    ck_assert_str_eq(r.out, "");
    ck_assert_msg(strstr(r.err, "queries.txt:2:") != NULL, "message '%s'", r.err);
    free_result(&r);
  }
  remove_temp_dir(dir);
}
END_TEST

// batch with several radii: whether one planner answers them all (auto, tangent) or one is built
// per radius (the funnel engines), every answer is the one `path` gives for that radius alone.

// The gap wall of gap_map, a square block and a circle in the way of the queries.
static const char radii_map[] =
    "{\"type\":\"FeatureCollection\",\"features\":[\n"
    " {\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\n"
    "  \"coordinates\":[[[-1,2],[1,2],[1,30],[-1,30],[-1,2]]]}},\n"
    " {\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\n"
    "  \"coordinates\":[[[-1,-30],[1,-30],[1,-2],[-1,-2],[-1,-30]]]}},\n"
    " {\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\n"
    "  \"coordinates\":[[[-12,-3],[-7,-3],[-7,1],[-12,1],[-12,-3]]]}},\n"
    " {\"type\":\"Feature\",\"properties\":{\"radius\":2.5},\"geometry\":{\"type\":\"Point\",\n"
    "  \"coordinates\":[9,0.5]}},\n"
    " {\"type\":\"Feature\",\"properties\":{\"role\":\"bounds\"},\"geometry\":{\"type\":"
    "\"Polygon\",\n"
    "  \"coordinates\":[[[-30,-30],[30,-30],[30,30],[-30,30],[-30,-30]]]}}\n"
    "]}\n";

static const struct {
  double from[2], to[2];
  double radius; ///< the fifth number
} radii_queries[] = {
    {{-20, -1}, {20, 0}, 1},     {{-20, -1}, {20, 0}, 0},    {{-20, -1}, {20, 0}, 2},
    {{-20, -1}, {20, 0}, 2.5},   {{-20, 8}, {20, -8}, 0.5},  {{-20, 8}, {20, -8}, 1.75},
    {{-9, 5}, {15, -4}, 1.25},   {{-20, -1}, {20, 0}, 0.25}, {{-9.5, -1}, {20, 0}, 1},
    {{-20, 25}, {25, -25}, 2.5}, {{-20, 8}, {20, -8}, 0},    {{5, 0.5}, {-5, 0}, 1},
};
enum { RADII_QUERIES = sizeof radii_queries / sizeof radii_queries[0] };

typedef struct path_answer {
  int code;
  char status[32];
  double length;
} path_answer;

// `path` from FROM to TO at RADIUS with PLANNER; checks the pieces add up to the length.
static path_answer run_path(const char *dir, const char *map, const char *planner,
                            const char *radius, arcnav_vec2 from, arcnav_vec2 to) {
  char from_text[64], to_text[64];
  snprintf(from_text, sizeof from_text, "%.17g,%.17g", from.x, from.y);
  snprintf(to_text, sizeof to_text, "%.17g,%.17g", to.x, to.y);
  const char *args[] = {"path",    "--map", map,     "--radius",  radius,  "--from",
                        from_text, "--to",  to_text, "--planner", planner, NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_msg(r.code == 0 || r.code == 1, "%s at R = %s: exit %d: %s", planner, radius, r.code,
                r.err);
  cJSON *answer = cJSON_Parse(r.out);
  ck_assert_msg(answer != NULL, "%s at R = %s: %s", planner, radius, r.out);
  path_answer result = {r.code, "", json_double(answer, "length")};
  snprintf(result.status, sizeof result.status, "%s", json_string(answer, "status"));
  ck_assert_int_eq(r.code, strcmp(result.status, "ok") == 0 ? 0 : 1);
  if (r.code == 0) {
    ck_assert_double_eq_tol(pieces_length(answer, from, to), result.length, 1e-9);
  }
  cJSON_Delete(answer);
  free_result(&r);
  return result;
}

// Run `batch` over radii_queries (with `--radius` when `batch_radius` is not NULL) and check
// every answer against `path` at that query's radius with the same planner; returns the
// summary's planners_built.
static double batch_matches_single_runs(const char *dir, const char *map, const char *queries,
                                        const char *planner, const char *batch_radius) {
  const char *args[12] = {"batch", "--map", map, "--queries", queries, "--planner", planner};
  size_t argc = 7;
  if (batch_radius != NULL) {
    args[argc++] = "--radius";
    args[argc++] = batch_radius;
  }
  args[argc] = NULL;
  run_result r = run_cli(dir, NULL, args);
  ck_assert_msg(r.code == 0, "%s: exit %d: %s", planner, r.code, r.err);
  cJSON *objects[RADII_QUERIES + 1];
  ck_assert_uint_eq(parse_lines(r.out, objects, RADII_QUERIES + 1), RADII_QUERIES + 1);
  size_t found = 0;
  // A scaled share of the lines is run again alone (each run of the tool, which valgrind traces,
  // costs it a second and a half); every line is counted in the summary.
  size_t alone = (size_t)test_scaled_count(RADII_QUERIES);
  for (size_t i = 0; i < RADII_QUERIES; i++) {
    ck_assert_double_eq(json_double(objects[i], "query"), i);
    ck_assert_double_eq(json_double(objects[i], "radius"), radii_queries[i].radius);
    const char *status = json_string(objects[i], "status");
    found += strcmp(status, "ok") == 0;
    if (i >= alone) {
      continue;
    }
    char radius[32];
    snprintf(radius, sizeof radius, "%.17g", radii_queries[i].radius);
    arcnav_vec2 a = {radii_queries[i].from[0], radii_queries[i].from[1]};
    arcnav_vec2 b = {radii_queries[i].to[0], radii_queries[i].to[1]};
    path_answer single = run_path(dir, map, planner, radius, a, b);
    ck_assert_msg(strcmp(status, single.status) == 0, "%s, query %zu at R = %g: batch %s, path %s",
                  planner, i, radii_queries[i].radius, status, single.status);
    double length = json_double(objects[i], "length"), expected = single.length;
    ck_assert_msg(fabs(length - expected) <= 1e-9 * fabs(expected),
                  "%s, query %zu at R = %g: batch %.17g, path %.17g", planner, i,
                  radii_queries[i].radius, length, expected);
    if (strcmp(status, "ok") == 0) {
      ck_assert_double_eq_tol(pieces_length(objects[i], a, b), length, 1e-9);
    }
  }
  const cJSON *summary = cJSON_GetObjectItemCaseSensitive(objects[RADII_QUERIES], "summary");
  ck_assert(cJSON_IsObject(summary));
  ck_assert_double_eq(json_double(summary, "queries"), RADII_QUERIES);
  ck_assert_double_eq(json_double(summary, "found"), found);
  double built = json_double(summary, "planners_built");
  for (size_t i = 0; i <= RADII_QUERIES; i++) {
    cJSON_Delete(objects[i]);
  }
  free_result(&r);
  return built;
}

START_TEST(batch_of_several_radii_answers_as_each_radius_alone) {
  char dir[512], map[1024], queries[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "radii.geojson", radii_map);
  join(map, sizeof map, dir, "radii.geojson");
  join(queries, sizeof queries, dir, "queries.txt");
  char text[2048] = "";
  size_t distinct = 0;
  for (size_t i = 0; i < RADII_QUERIES; i++) {
    char line[160];
    snprintf(line, sizeof line, "%.17g %.17g %.17g %.17g %.17g\n", radii_queries[i].from[0],
             radii_queries[i].from[1], radii_queries[i].to[0], radii_queries[i].to[1],
             radii_queries[i].radius);
    strcat(text, line);
    bool seen = false;
    for (size_t j = 0; j < i; j++) {
      seen = seen || radii_queries[j].radius == radii_queries[i].radius;
    }
    distinct += !seen;
  }
  write_text(dir, "queries.txt", text);
  ck_assert_uint_gt(distinct, 1);
  // auto and tangent: one planner for every radius, whether it starts at the first line's radius
  // or at a --radius no line uses.
  ck_assert_double_eq(batch_matches_single_runs(dir, map, queries, "auto", NULL), 1);
  ck_assert_double_eq(batch_matches_single_runs(dir, map, queries, "tangent", "0.75"), 1);
  ck_assert_double_eq(batch_matches_single_runs(dir, map, queries, "interval", NULL), 1);
  // The funnel engines grow the obstacles by one radius: a planner per radius.
  ck_assert_double_eq(batch_matches_single_runs(dir, map, queries, "funnel", NULL), distinct);
  remove_temp_dir(dir);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// --planner interval: exact for R > 0 with nothing built per radius, so its answers are the
// tangent engine's (lengths within 1e-9 relative); for R = 0 it is what auto builds.

// The engine `path --format text` reports (ENGINE holds 32 bytes).
static void path_engine(const char *dir, const char *map, const char *planner, const char *radius,
                        char engine[32]) {
  const char *args[] = {"path", "--map", map,        "--radius", radius,      "--from", "-10,6",
                        "--to", "10,-6", "--format", "text",     "--planner", planner,  NULL};
  run_result r = run_cli(dir, NULL, args);
  ck_assert_msg(r.code == 0, "%s at R = %s: exit %d: %s", planner, radius, r.code, r.err);
  const char *line = strstr(r.out, "engine:");
  ck_assert_msg(line != NULL, "no engine line in '%s'", r.out);
  ck_assert_int_eq(sscanf(line, "engine: %31s", engine), 1);
  free_result(&r);
}

START_TEST(path_interval_planner_is_exact) {
  char dir[512], gap[1024], radii[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "gap.geojson", gap_map);
  write_text(dir, "radii.geojson", radii_map);
  join(gap, sizeof gap, dir, "gap.geojson");
  join(radii, sizeof radii, dir, "radii.geojson");
  // By hand: straight through the 4-wide gap up to R = 2, closed above.
  path_answer a = run_path(dir, gap, "interval", "1", (arcnav_vec2){-10, 0}, (arcnav_vec2){10, 0});
  ck_assert_str_eq(a.status, "ok");
  ck_assert_double_eq_tol(a.length, 20, 1e-9);
  a = run_path(dir, gap, "interval", "2", (arcnav_vec2){-10, 0}, (arcnav_vec2){10, 0});
  ck_assert_str_eq(a.status, "ok");
  ck_assert_double_eq_tol(a.length, 20, 1e-9);
  a = run_path(dir, gap, "interval", "3", (arcnav_vec2){-10, 0}, (arcnav_vec2){10, 0});
  ck_assert_str_eq(a.status, "no_path");
  // Every query of radii_queries (a scaled share of them: two runs of the tool each, which
  // valgrind traces): the same answer as the tangent engine's.
  for (size_t i = 0; i < (size_t)test_scaled_count(RADII_QUERIES); i++) {
    char radius[32];
    snprintf(radius, sizeof radius, "%.17g", radii_queries[i].radius);
    arcnav_vec2 from = {radii_queries[i].from[0], radii_queries[i].from[1]};
    arcnav_vec2 to = {radii_queries[i].to[0], radii_queries[i].to[1]};
    path_answer interval = run_path(dir, radii, "interval", radius, from, to);
    path_answer tangent = run_path(dir, radii, "tangent", radius, from, to);
    ck_assert_msg(strcmp(interval.status, tangent.status) == 0,
                  "query %zu at R = %s: interval %s, tangent %s", i, radius, interval.status,
                  tangent.status);
    ck_assert_msg(fabs(interval.length - tangent.length) <= 1e-9 * fabs(tangent.length),
                  "query %zu at R = %s: interval %.17g, tangent %.17g", i, radius, interval.length,
                  tangent.length);
  }
  // The engine it reports: interval above R = 0, what auto builds at R = 0.
  char engine[32], auto_engine[32];
  path_engine(dir, gap, "interval", "1", engine);
  ck_assert_str_eq(engine, "interval");
  path_engine(dir, gap, "interval", "0", engine);
  path_engine(dir, gap, "auto", "0", auto_engine);
  ck_assert_str_eq(engine, auto_engine);
  // render takes it too.
  char svg[1024];
  join(svg, sizeof svg, dir, "interval.svg");
  const char *render[] = {"render", "--map", gap,     "--radius", "1",         "--from",   "-10,0",
                          "--to",   "10,0",  "--out", svg,        "--planner", "interval", NULL};
  run_result r = run_cli(dir, NULL, render);
  ck_assert_msg(r.code == 0, "render: exit %d: %s", r.code, r.err);
  free_result(&r);
  char *picture = slurp(svg);
  ck_assert_ptr_nonnull(strstr(picture, "<svg"));
  free(picture);
  remove_temp_dir(dir);
}
END_TEST

// A batch whose fifth column asks for two radii: --planner interval builds one planner for both
// and answers every line as --planner tangent does.
START_TEST(batch_interval_one_planner_for_two_radii) {
  char dir[512], map[1024], queries[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "radii.geojson", radii_map);
  join(map, sizeof map, dir, "radii.geojson");
  join(queries, sizeof queries, dir, "queries.txt");
  static const double radii[2] = {1, 2.5};
  enum { LINES = 2 * RADII_QUERIES };
  char text[4096] = "# sx sy gx gy r\n";
  for (size_t i = 0; i < LINES; i++) {
    char line[160];
    const size_t q = i % RADII_QUERIES;
    snprintf(line, sizeof line, "%.17g %.17g %.17g %.17g %.17g\n", radii_queries[q].from[0],
             radii_queries[q].from[1], radii_queries[q].to[0], radii_queries[q].to[1],
             radii[(i + i / RADII_QUERIES) % 2]);
    strcat(text, line);
  }
  write_text(dir, "queries.txt", text);
  static const char *const planners[2] = {"interval", "tangent"};
  cJSON *objects[2][LINES + 1];
  for (size_t p = 0; p < 2; p++) {
    const char *args[] = {"batch", "--map",     map,         "--queries",
                          queries, "--planner", planners[p], NULL};
    run_result r = run_cli(dir, NULL, args);
    ck_assert_msg(r.code == 0, "%s: exit %d: %s", planners[p], r.code, r.err);
    ck_assert_uint_eq(parse_lines(r.out, objects[p], LINES + 1), LINES + 1);
    free_result(&r);
    const cJSON *summary = cJSON_GetObjectItemCaseSensitive(objects[p][LINES], "summary");
    ck_assert(cJSON_IsObject(summary));
    ck_assert_double_eq(json_double(summary, "planners_built"), 1);
    ck_assert_double_eq(json_double(summary, "queries"), LINES);
    ck_assert_str_eq(json_string(summary, "engine"), planners[p]);
  }
  size_t found = 0;
  for (size_t i = 0; i < LINES; i++) {
    const size_t q = i % RADII_QUERIES;
    const cJSON *interval = objects[0][i], *tangent = objects[1][i];
    ck_assert_double_eq(json_double(interval, "query"), i);
    ck_assert_double_eq(json_double(interval, "radius"), radii[(i + i / RADII_QUERIES) % 2]);
    const char *status = json_string(interval, "status");
    ck_assert_msg(strcmp(status, json_string(tangent, "status")) == 0,
                  "line %zu: interval %s, tangent %s", i, status, json_string(tangent, "status"));
    double length = json_double(interval, "length"), expected = json_double(tangent, "length");
    ck_assert_msg(fabs(length - expected) <= 1e-9 * fabs(expected),
                  "line %zu: interval %.17g, tangent %.17g", i, length, expected);
    if (strcmp(status, "ok") == 0) {
      found++;
      arcnav_vec2 a = {radii_queries[q].from[0], radii_queries[q].from[1]};
      arcnav_vec2 b = {radii_queries[q].to[0], radii_queries[q].to[1]};
      ck_assert_double_eq_tol(pieces_length(interval, a, b), length, 1e-9);
    }
  }
  // Both radii answer somewhere (the comparison is not between two empty runs).
  ck_assert_uint_gt(found, RADII_QUERIES / 2);
  const cJSON *summary = cJSON_GetObjectItemCaseSensitive(objects[0][LINES], "summary");
  ck_assert_double_eq(json_double(summary, "found"), found);
  for (size_t p = 0; p < 2; p++) {
    for (size_t i = 0; i <= LINES; i++) {
      cJSON_Delete(objects[p][i]);
    }
  }
  remove_temp_dir(dir);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// MovingAI grids and the map format choice.

// Cells (1, 1) to (3, 1) blocked: the obstacle [1, 4] x [1, 2] in a 5 x 3 grid, bounds [0, 5] x
// [0, 3]; cell (2, 0), in the file's first row, blocked too: [2, 3] x [0, 1].
static const char grid_text[] = "type octile\nheight 3\nwidth 5\nmap\n..T..\n.@@@.\n.....\n";

// From (0.5, 1.5) around the corner (1, 2) of [1, 4] x [1, 2], along y = 2 + r and around (4, 2)
// to (4.5, 1.5): the cell (2, 0) closes the way along y = 1 - r. Tangent length sqrt(d^2 - r^2)
// with d^2 = 1/2, then an arc of 3 pi / 4 - acos(r / d) at each end.
static double grid_length(double r) {
  double d = sqrt(0.5);
  return 2 * (sqrt(0.5 - r * r) + r * (3 * PI / 4 - acos(r / d))) + 3;
}

START_TEST(movingai_grid_is_a_map) {
  char dir[512], map[1024];
  make_temp_dir(dir, sizeof dir);
  static const char *const names[] = {"grid.map", "grid.txt", "grid"};
  static const char *const radii[] = {"0", "0.25", "0.5"};
  for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
    write_text(dir, names[n], grid_text);
    join(map, sizeof map, dir, names[n]);
    for (size_t k = 0; k < sizeof radii / sizeof radii[0]; k++) {
      const char *args[] = {"path",   "--map",   map,    "--radius", radii[k],
                            "--from", "0.5,1.5", "--to", "4.5,1.5",  NULL};
      run_result r = run_cli(dir, NULL, args);
      ck_assert_msg(r.code == 0, "%s R = %s: exit %d: %s", names[n], radii[k], r.code, r.err);
      cJSON *answer = cJSON_Parse(r.out);
      ck_assert_ptr_nonnull(answer);
      double length = json_double(answer, "length");
      ck_assert_msg(fabs(length - grid_length(atof(radii[k]))) < 1e-9, "%s R = %s: length %.17g",
                    names[n], radii[k], length);
      ck_assert_double_eq_tol(
          pieces_length(answer, (arcnav_vec2){0.5, 1.5}, (arcnav_vec2){4.5, 1.5}), length, 1e-9);
      cJSON_Delete(answer);
      free_result(&r);
    }
  }
  join(map, sizeof map, dir, "grid.map");
  // No flip: the first row is y in [0, 1], so (2.5, 0.5) is in the blocked cell (2, 0).
  const char *blocked[] = {"path",   "--map",   map,    "--radius", "0",
                           "--from", "2.5,0.5", "--to", "0.5,0.5",  NULL};
  run_result r = run_cli(dir, NULL, blocked);
  ck_assert_int_eq(r.code, 1);
  ck_assert_ptr_nonnull(strstr(r.out, "\"start_blocked\""));
  free_result(&r);
  // The grid's edge is the bounds, a wall: at R = 0.6 the start, 0.5 from it, is blocked, and
  // no point across it is free.
  const char *closed[] = {"path",   "--map",   map,    "--radius", "0.6",
                          "--from", "0.5,1.5", "--to", "4.5,1.5",  NULL};
  r = run_cli(dir, NULL, closed);
  ck_assert_int_eq(r.code, 1);
  ck_assert_ptr_nonnull(strstr(r.out, "\"start_blocked\""));
  free_result(&r);
  const char *outside[] = {"path",   "--map",    map,    "--radius", "0",
                           "--from", "-0.5,1.5", "--to", "0.5,1.5",  NULL};
  r = run_cli(dir, NULL, outside);
  ck_assert_int_eq(r.code, 1);
  ck_assert_ptr_nonnull(strstr(r.out, "\"start_blocked\""));
  free_result(&r);
  char svg[1024];
  join(svg, sizeof svg, dir, "grid.svg");
  const char *render[] = {"render", "--map", map, "--radius", "0.25", "--out", svg, NULL};
  r = run_cli(dir, NULL, render);
  ck_assert_msg(r.code == 0, "exit %d: %s", r.code, r.err);
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

START_TEST(map_format_detected_by_content_or_given) {
  char dir[512], map[1024];
  make_temp_dir(dir, sizeof dir);
  // `.txt` is read by its content: GeoJSON, a grid, or NEERC text.
  write_text(dir, "square.txt", square_map);
  write_text(dir, "case.txt", "1 1\n-3 0 3 0\n-1 -1 1 1\n");
  write_text(dir, "grid.json", grid_text);
  static const struct {
    const char *file, *format, *radius, *from, *to;
    int code;
    double length; ///< < 0: not checked
  } cases[] = {
      {"square.txt", NULL, "1", "-3,0", "3,0", 0, -1},
      {"case.txt", NULL, NULL, NULL, NULL, 0, -1},
      {"grid.json", "movingai", "0", "0.5,1.5", "4.5,1.5", 0, -1},
      {"square.txt", "geojson", "1", "-3,0", "3,0", 0, -1},
      {"case.txt", "neerc", NULL, NULL, NULL, 0, -1},
      {"grid.json", NULL, "0", "0.5,1.5", "4.5,1.5", 2, -1},  // .json is GeoJSON
      {"square.txt", "neerc", "1", "-3,0", "3,0", 2, -1},     // not NEERC text
      {"case.txt", "movingai", "1", "-3,0", "3,0", 2, -1},    // no grid header
      {"square.txt", "shapefile", "1", "-3,0", "3,0", 2, -1}, // unknown format
  };
  double square = 6 + 2 * atan2(4, 3);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    join(map, sizeof map, dir, cases[i].file);
    const char *args[16] = {"path", "--map", map};
    size_t n = 3;
    if (cases[i].format != NULL) {
      args[n++] = "--map-format";
      args[n++] = cases[i].format;
    }
    if (cases[i].radius != NULL) {
      args[n++] = "--radius";
      args[n++] = cases[i].radius;
      args[n++] = "--from";
      args[n++] = cases[i].from;
      args[n++] = "--to";
      args[n++] = cases[i].to;
    }
    args[n] = NULL;
    run_result r = run_cli(dir, NULL, args);
    ck_assert_msg(r.code == cases[i].code, "case %zu: exit %d: %s", i, r.code, r.err);
    if (r.code == 0) {
      cJSON *answer = cJSON_Parse(r.out);
      ck_assert_ptr_nonnull(answer);
      double length = json_double(answer, "length");
      double expected = cases[i].file[1] == 'r' ? grid_length(0) : square;
      ck_assert_msg(fabs(length - expected) < 1e-9, "case %zu: length %.17g", i, length);
      cJSON_Delete(answer);
    } else {
      ck_assert_str_eq(r.out, "");
      ck_assert_uint_eq(count_lines(r.err), 1);
    }
    free_result(&r);
  }
  remove_temp_dir(dir);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// SVG in screen coordinates.

static size_t count_of(const char *text, const char *needle) {
  size_t n = 0;
  for (const char *at = strstr(text, needle); at != NULL; at = strstr(at + 1, needle)) {
    n++;
  }
  return n;
}

START_TEST(y_down_draws_without_flip) {
  char dir[512], map[1024], svg[1024];
  make_temp_dir(dir, sizeof dir);
  write_text(dir, "square.geojson", square_map);
  join(map, sizeof map, dir, "square.geojson");
  join(svg, sizeof svg, dir, "out.svg");
  // From (-3, 0.5) the path goes over the square's top, y = 2: every arc turns one way.
  const char *up[] = {"path",   "--map", map,     "--radius", "1", "--from",
                      "-3,0.5", "--to",  "3,0.5", "--svg",    svg, NULL};
  const char *down[] = {"path", "--map", map,     "--radius", "1",        "--from", "-3,0.5",
                        "--to", "3,0.5", "--svg", svg,        "--y-down", NULL};
  run_result r = run_cli(dir, NULL, up);
  ck_assert_int_eq(r.code, 0);
  free_result(&r);
  char *flipped = slurp(svg);
  r = run_cli(dir, NULL, down);
  ck_assert_int_eq(r.code, 0);
  free_result(&r);
  char *screen = slurp(svg);
  // The circle obstacle at (0, 20): drawn at y = -20 flipped, at y = 20 in screen coordinates.
  ck_assert_ptr_nonnull(strstr(flipped, "cy=\"-20\""));
  ck_assert_ptr_null(strstr(flipped, "cy=\"20\""));
  ck_assert_ptr_nonnull(strstr(screen, "cy=\"20\""));
  ck_assert_ptr_null(strstr(screen, "cy=\"-20\""));
  // Mirroring swaps every arc's sweep flag.
  size_t flipped0 = count_of(flipped, " A1 1 0 0 0 "), flipped1 = count_of(flipped, " A1 1 0 0 1 ");
  size_t screen0 = count_of(screen, " A1 1 0 0 0 "), screen1 = count_of(screen, " A1 1 0 0 1 ");
  ck_assert_uint_gt(flipped0 + flipped1, 4);
  ck_assert_uint_ne(flipped0, flipped1);
  ck_assert_uint_eq(screen0, flipped1);
  ck_assert_uint_eq(screen1, flipped0);
  free(flipped);
  free(screen);

  const char *render[] = {"render", "--map", map, "--out", svg, "--y-down", NULL};
  r = run_cli(dir, NULL, render);
  ck_assert_int_eq(r.code, 0);
  free_result(&r);
  screen = slurp(svg);
  ck_assert_ptr_nonnull(strstr(screen, "cy=\"20\""));
  free(screen);
  remove_temp_dir(dir);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Every option of every sub-command's usage line is in `arcnav --help` and in docs/CLI.md.

START_TEST(every_option_is_in_the_help_and_the_docs) {
  char dir[512];
  make_temp_dir(dir, sizeof dir);
  const char *help[] = {"--help", NULL};
  run_result main_help = run_cli(dir, NULL, help);
  ck_assert_int_eq(main_help.code, 0);
  char *docs = slurp(ARCNAV_EXAMPLES_DIR "/../docs/CLI.md");
  static const char *const commands[] = {"neerc", "path", "batch", "render", "demo"};
  size_t options = 0;
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    const char *args[] = {commands[i], "--help", NULL};
    run_result r = run_cli(dir, NULL, args);
    ck_assert_int_eq(r.code, 0);
    // The usage lines: up to the first blank line.
    char *end = strstr(r.out, "\n\n");
    if (end != NULL) {
      *end = '\0';
    }
    for (char *at = strstr(r.out, "--"); at != NULL; at = strstr(at + 2, "--")) {
      char option[64];
      size_t n = 2;
      while (n < sizeof option - 1 && (at[n] == '-' || (at[n] >= 'a' && at[n] <= 'z'))) {
        n++;
      }
      memcpy(option, at, n);
      option[n] = '\0';
      ck_assert_msg(strstr(main_help.out, option) != NULL, "%s %s is not in arcnav --help",
                    commands[i], option);
      ck_assert_msg(strstr(docs, option) != NULL, "%s %s is not in docs/CLI.md", commands[i],
                    option);
      options++;
    }
    free_result(&r);
  }
  ck_assert_uint_ge(options, 15);
  free(docs);
  free_result(&main_help);
  remove_temp_dir(dir);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// demo finds its maps beside an installed program first, or where --maps says.

static void copy_file(const char *from, const char *to, mode_t mode) {
  FILE *in = fopen(from, "rb");
  ck_assert_msg(in != NULL, "cannot open %s", from);
  FILE *out = fopen(to, "wb");
  ck_assert_msg(out != NULL, "cannot create %s", to);
  char buffer[65536];
  size_t got;
  while ((got = fread(buffer, 1, sizeof buffer, in)) > 0) {
    ck_assert_uint_eq(fwrite(buffer, 1, got, out), got);
  }
  fclose(in);
  ck_assert_int_eq(fclose(out), 0);
  ck_assert_int_eq(chmod(to, mode), 0);
}

START_TEST(demo_looks_beside_the_installed_program) {
  char dir[512], path[1024], examples[1024], program[1024], pictures[1024];
  make_temp_dir(dir, sizeof dir);
  static const char *const parts[] = {"prefix", "prefix/bin", "prefix/share", "prefix/share/arcnav",
                                      "prefix/share/arcnav/examples"};
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    join(path, sizeof path, dir, parts[i]);
    ck_assert_int_eq(mkdir(path, 0755), 0);
  }
  join(program, sizeof program, dir, "prefix/bin/arcnav");
  copy_file(ARCNAV_CLI_PATH, program, 0755);
  join(examples, sizeof examples, dir, "prefix/share/arcnav/examples");
  join(pictures, sizeof pictures, dir, "pictures");
  static const char *const maps[] = {"town.geojson", "maze.geojson", "plaza.geojson"};
  for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
    char from[1024], to[1100];
    snprintf(from, sizeof from, "%s/%s", ARCNAV_EXAMPLES_DIR, maps[i]);
    snprintf(to, sizeof to, "%s/%s", examples, maps[i]);
    copy_file(from, to, 0644);
  }
  // The installed town is broken: the demo must fail on it, naming it, although the source
  // tree's copy is fine.
  char town[1100];
  snprintf(town, sizeof town, "%s/town.geojson", examples);
  FILE *f = fopen(town, "w");
  ck_assert_ptr_nonnull(f);
  fputs("{\"type\":", f);
  fclose(f);
  const char *args[] = {"demo", "--out", pictures, NULL};
  run_result r = run_program(dir, NULL, program, args);
  ck_assert_int_eq(r.code, 2);
  ck_assert_str_eq(r.out, "");
  ck_assert_msg(strstr(r.err, "share/arcnav/examples/town.geojson") != NULL, "message '%s'", r.err);
  free_result(&r);
  // --maps overrides the lookup.
  const char *given[] = {"demo", "--out", pictures, "--maps", ARCNAV_EXAMPLES_DIR, NULL};
  r = run_program(dir, NULL, program, given);
  ck_assert_msg(r.code == 0, "exit %d: %s", r.code, r.err);
  free_result(&r);
  // With the installed town repaired the lookup succeeds.
  char source[1024];
  snprintf(source, sizeof source, "%s/town.geojson", ARCNAV_EXAMPLES_DIR);
  copy_file(source, town, 0644);
  r = run_program(dir, NULL, program, args);
  ck_assert_msg(r.code == 0, "exit %d: %s", r.code, r.err);
  ck_assert_ptr_nonnull(strstr(r.out, "no_path"));
  free_result(&r);
  // A --maps directory without the maps: exit 2, naming the file that is missing.
  const char *missing[] = {"demo", "--out", pictures, "--maps", dir, NULL};
  r = run_program(dir, NULL, program, missing);
  ck_assert_int_eq(r.code, 2);
  ck_assert_str_eq(r.out, "");
  ck_assert_ptr_nonnull(strstr(r.err, "town.geojson"));
  free_result(&r);
  remove_temp_dir(dir);
}
END_TEST

static Suite *cli_suite(void) {
  Suite *s = suite_create("cli");
  TCase *neerc = tcase_create("neerc");
  tcase_add_test(neerc, neerc_sample_matches_answer_file);
  tcase_add_test(neerc, neerc_hand_checked_cases);
  tcase_add_test(neerc, neerc_malformed_input);
  suite_add_tcase(s, neerc);
  TCase *usage = tcase_create("usage");
  tcase_add_test(usage, help_and_version);
  tcase_add_test(usage, path_usage_errors_exit_2);
  tcase_add_test(usage, every_option_is_in_the_help_and_the_docs);
  suite_add_tcase(s, usage);
  TCase *maps = tcase_create("maps");
  tcase_add_loop_test(maps, invalid_geojson_exits_2_naming_the_feature, 0,
                      (int)(sizeof invalid_maps / sizeof invalid_maps[0]));
  tcase_add_test(maps, deeply_nested_json_does_not_crash);
  tcase_add_test(maps, ignored_features_warn);
  suite_add_tcase(s, maps);
  TCase *paths = tcase_create("paths");
  tcase_set_timeout(paths, 60);
  tcase_add_test(paths, path_neerc_map_defaults);
  tcase_add_test(paths, path_geojson_length_is_sum_of_pieces);
  tcase_add_test(paths, path_without_answer_exits_1);
  tcase_add_test(paths, batch_prints_one_line_per_query_and_a_summary);
  tcase_add_test(paths, batch_funnel_planner_answers_or_refuses_clearly);
  tcase_add_test(paths, render_writes_svg_with_arcs);
  tcase_add_test(paths, town_gate_admits_only_the_small_unit);
  tcase_add_test(paths, demo_runs_without_arguments);
  tcase_add_test(paths, batch_fifth_number_is_the_query_radius);
  tcase_add_test(paths, batch_of_several_radii_answers_as_each_radius_alone);
  tcase_add_test(paths, path_interval_planner_is_exact);
  tcase_add_test(paths, batch_interval_one_planner_for_two_radii);
  tcase_add_test(paths, movingai_grid_is_a_map);
  tcase_add_test(paths, map_format_detected_by_content_or_given);
  tcase_add_test(paths, y_down_draws_without_flip);
  tcase_add_test(paths, demo_looks_beside_the_installed_program);
  suite_add_tcase(s, paths);
  return s;
}

int main(void) {
  SRunner *runner = srunner_create(cli_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
